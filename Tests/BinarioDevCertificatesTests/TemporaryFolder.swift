import Foundation

/// Runs `body` with a fresh, empty folder that is deleted afterwards.
@discardableResult
func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async rethrows -> T {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("binario-dev-certs-tests-\(UUID().uuidString)", isDirectory: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  return try await body(folder)
}
