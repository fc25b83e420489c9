import Foundation

/// The tokens of a signed-in session, kept in a JSON file that only its owner can read (0600).
struct StoredSession: Codable, Sendable {
  var userID: String
  var email: String
  var roles: [String]
  var accessToken: String
  var accessTokenExpiresAt: Date
  var refreshToken: String
  var refreshTokenExpiresAt: Date
}

/// Reads and writes a ``StoredSession`` file.
struct SessionFile: Sendable {
  /// `~/.config/binario/session.json`.
  static var defaultPath: String {
    let home = ProcessInfo.processInfo.environment["HOME"] ?? FileManager.default.currentDirectoryPath
    return "\(home)/.config/binario/session.json"
  }

  let path: String

  /// The stored session, or `nil` when signed out.
  func load() throws -> StoredSession? {
    guard FileManager.default.fileExists(atPath: self.path) else { return nil }
    let data = try Data(contentsOf: URL(fileURLWithPath: self.path))
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    do {
      return try decoder.decode(StoredSession.self, from: data)
    } catch {
      throw CLIError("the session file \(self.path) is damaged; run 'binario logout --local' and sign in again")
    }
  }

  /// Writes `session` atomically; the file is created readable and writable by its owner only.
  func save(_ session: StoredSession) throws {
    let url = URL(fileURLWithPath: self.path)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700]
    )
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data = try encoder.encode(session)
    // Write to a private temporary file, then rename over the old one: never a moment where the
    // tokens sit in a file others can read, never a half-written file.
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid())")
    let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { throw CLIError("cannot write the session file \(temporary.path)") }
    let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    guard written == data.count, rename(temporary.path, url.path) == 0 else {
      unlink(temporary.path)
      throw CLIError("cannot write the session file \(self.path)")
    }
  }

  func delete() throws {
    if FileManager.default.fileExists(atPath: self.path) {
      try FileManager.default.removeItem(atPath: self.path)
    }
  }
}
