import Foundation

/// Writes lines straight to stdout (unbuffered `write(2)`), so progress shows at once even when
/// stdout is a pipe, and a server child's replies reach the parent without a flush.
public enum Output {
  public static func line(_ text: String = "") {
    try? FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
  }
}
