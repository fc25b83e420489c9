import ArgumentParser

/// What carries the echo calls in one row of the benchmark.
enum TransportKind: String, CaseIterable, ExpressibleByArgument, Sendable {
  /// The frame layer alone: `BinarioListener` answering on the event loop, `BinarioClientConnection`
  /// opening calls from the event loop. No GRPCCore, no Swift concurrency on the hot path.
  case frames
  /// GRPCCore (`GRPCServer` / `GRPCClient`) over `BinarioServerTransport` / `BinarioClientTransport`.
  case binario
  /// GRPCCore over grpc-swift-nio-transport's HTTP/2 (`HTTP2ServerTransport.Posix` /
  /// `HTTP2ClientTransport.Posix`): the baseline.
  case http2

  /// The label used in tables.
  var label: String {
    switch self {
    case .frames: return "frames"
    case .binario: return "grpc/binario"
    case .http2: return "grpc/http2"
    }
  }
}
