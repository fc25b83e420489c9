import ArgumentParser
import BenchSupport
import BinarioServiceKit
import Foundation

/// One echo server, as a child of `run`: prints `listening pid=… port=…`, answers `usage`
/// requests on stdin, and exits when stdin closes (see ``ServerControl``).
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Runs one echo server: `run` starts one per transport as a child process."
  )

  @Option(help: "Which server: \(TransportKind.allCases.map(\.rawValue).joined(separator: ", ")).")
  var kind: TransportKind

  @Option(name: .customLong("cert-dir"), help: "Folder with ca.pem, server.pem and server-key.pem.")
  var certificateDirectory: String

  @OptionGroup var executor: ExecutorOptions

  func run() throws {
    let certificates = try BenchCertificates.read(from: URL(fileURLWithPath: self.certificateDirectory))
    let kind = self.kind
    try EventLoopConcurrency.run(installing: self.executor.nioExecutor) {
      try await EchoServers.serve(kind: kind, certificates: certificates) { port in
        ServerControl.announceAndServeRequests(port: port)
      }
    }
  }
}
