import Foundation
import Glibc

/// An exclusive lock on a service's data directory, held by the process that serves from it.
///
/// A second process on the same directory (a second replica on a shared volume, a restore while
/// the service runs) would write the same SQLite files behind the first one's back: the service
/// takes this lock when it starts and holds it until it exits (the kernel releases it then, also
/// after `kill -9`); `binario-backup restore` takes it before touching the files. An advisory
/// `flock` on `.lock` in the directory.
public final class DataDirectoryLock: Sendable {
  public let directory: String
  private let descriptor: Int32

  /// Another process holds the lock.
  public struct Held: Error, CustomStringConvertible {
    public let directory: String
    public var description: String {
      "another process uses the data directory \(directory) (it holds \(directory)/.lock): stop it first; two processes on one database would corrupt it"
    }
  }

  /// Takes the lock on `directory` (creating it if needed), or throws ``Held`` at once.
  public init(directory: String) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = (directory as NSString).appendingPathComponent(".lock")
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let failure = errno
      close(descriptor)
      if failure == EWOULDBLOCK { throw Held(directory: directory) }
      throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
    }
    self.directory = directory
    self.descriptor = descriptor
  }

  deinit {
    close(self.descriptor)
  }
}
