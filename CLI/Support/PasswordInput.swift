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
    return try readSecret(prompt: prompt, environmentVariable: environmentVariable)
  }
}

/// A secret from `environmentVariable`, else typed at the terminal without echo. (A
/// `PasswordOptions()` made by hand must not be read: its flag was never parsed.)
func readSecret(prompt: String, environmentVariable: String) throws -> String {
  if let secret = ProcessInfo.processInfo.environment[environmentVariable] { return secret }
  guard let typed = getpass(prompt) else {
    throw CLIError("nothing given for \(prompt.trimmingCharacters(in: .punctuationCharacters.union(.whitespaces)))")
  }
  return String(cString: typed)
}
