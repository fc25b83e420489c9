import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `contents` to `url` through a temporary file in the same folder renamed over the
/// target, so readers never see a half-written file and a key file never exists, even briefly,
/// with permissions wider than `permissions`.
func writeAtomically(_ contents: String, to url: URL, permissions: mode_t) throws {
  let path = url.path
  let temporaryPath = url.deletingLastPathComponent()
    .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path

  func failure(_ step: String) -> DevCertificateError {
    DevCertificateError.cannotWrite(path: path, reason: "\(step): \(String(cString: strerror(errno)))")
  }

  let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
  guard descriptor >= 0 else { throw failure("open") }
  var written = false
  defer {
    if !written { unlink(temporaryPath) }
  }
  // The umask may have narrowed the mode given to open; certificates must stay world-readable.
  guard fchmod(descriptor, permissions) == 0 else {
    close(descriptor)
    throw failure("chmod")
  }
  let bytes = Array(contents.utf8)
  var offset = 0
  while offset < bytes.count {
    let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    if count < 0 {
      if errno == EINTR { continue }
      close(descriptor)
      throw failure("write")
    }
    offset += count
  }
  guard close(descriptor) == 0 else { throw failure("close") }
  guard rename(temporaryPath, path) == 0 else { throw failure("rename") }
  written = true
}
