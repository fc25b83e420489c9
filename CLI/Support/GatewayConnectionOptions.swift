import ArgumentParser
import Foundation

/// Where the gateway is and which CA its certificate chains to; shared by every command.
struct GatewayConnectionOptions: ParsableArguments {
  @Option(
    name: .customLong("gateway"),
    help: ArgumentHelp("The gateway's host:port. (BINARIO_GATEWAY)", valueName: "host:port")
  )
  var gateway: String = ProcessInfo.processInfo.environment["BINARIO_GATEWAY"] ?? "localhost:7100"

  @Option(
    name: .customLong("ca"),
    help: ArgumentHelp("PEM CA the gateway's certificate chains to. (BINARIO_CA)", valueName: "pem-file")
  )
  var caFile: String = ProcessInfo.processInfo.environment["BINARIO_CA"] ?? ".dev/certs/ca.pem"

  @Option(
    name: .customLong("session"),
    help: ArgumentHelp(
      "Where the signed-in session's tokens are kept (readable by you only). (BINARIO_SESSION)",
      valueName: "file"
    )
  )
  var sessionFile: String = ProcessInfo.processInfo.environment["BINARIO_SESSION"] ?? SessionFile.defaultPath

  @Option(
    name: .customLong("timeout"),
    help: ArgumentHelp("Seconds each call may take.", valueName: "seconds")
  )
  var timeoutSeconds: Double = 10

  /// The gateway's host and port.
  func endpoint() throws -> (host: String, port: Int) {
    guard let colon = self.gateway.lastIndex(of: ":"),
      let port = Int(self.gateway[self.gateway.index(after: colon)...]), (1 ... 65535).contains(port)
    else {
      throw ValidationError("--gateway must be host:port, got '\(self.gateway)'")
    }
    var host = String(self.gateway[..<colon])
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    return (host, port)
  }
}
