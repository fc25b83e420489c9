import ArgumentParser

/// `transport-bench`: echo calls over the Binario frame layer, GRPCCore on the Binario transport,
/// and GRPCCore on HTTP/2, with client and server in separate processes.
///
/// The root command is synchronous on purpose: installing NIO's event loops as Swift
/// concurrency's global executor must happen before any task starts (see `EventLoopConcurrency` in BinarioServiceKit).
@main
struct TransportBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "transport-bench",
    abstract: "Compares the Binario transport with gRPC over HTTP/2 (TLS, one connection, separate processes).",
    subcommands: [RunCommand.self, ServeCommand.self],
    defaultSubcommand: RunCommand.self
  )
}
