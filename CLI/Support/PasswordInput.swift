import ArgumentParser
import Foundation

/// Where a command gets a password: `--password-stdin`, the `BINARIO_PASSWORD` environment
/// variable, or the terminal without echo. Never a plain flag: it would land in shell history.
struct PasswordOptions: ParsableArguments {
  @Flag(name: .customLong("password-stdin"), help: "Read the password from the first line of standard input.")
  var fromStandardInput = false

  func read(prompt: String = "Password: ", environmentVariable: String = "BINARIO_PASSWORD") throws -> String {
    if self.fromStandardInput {
      guard let line = Swift.readLine(strippingNewline: true) else {
        throw CLIError("no password on standard input")
      }
      return line
    }
    if let password = ProcessInfo.processInfo.environment[environmentVariable] { return password }
    guard let typed = getpass(prompt) else { throw CLIError("no password given") }
    return String(cString: typed)
  }
}
