import ArgumentParser
import BinarioEcho
import BinarioServiceKit

/// `binario-echo-server`: the echo service (all four call kinds) as its own process, on the
/// Binario transport with the usual service flags. Handy to check a deployment's certificates
/// and network end to end; the transport tests kill it to lose a server for real.
@main
struct EchoServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "binario-echo-server",
    abstract: "Serve binario.echo.v1.Echo over the Binario transport."
  )

  @OptionGroup var options: ServiceOptions

  func run() async throws {
    try await ServiceRunner.run(options: self.options, serviceName: "echo", transport: .binario) { _ in
      [EchoService()]
    }
  }
}
