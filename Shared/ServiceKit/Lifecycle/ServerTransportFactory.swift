import GRPCCore
import Logging

/// How ``ServiceRunner`` gets the transport its `GRPCServer` listens on, and where it listens.
///
/// ServiceKit stays transport-agnostic; ``binario`` (in `BinarioTransportFactory.swift`) is the
/// production one, tests use GRPCCore's in-process transport.
public struct ServerTransportFactory<Transport: ServerTransport>: Sendable {
  /// Makes the transport from the resolved configuration.
  public var makeTransport: @Sendable (_ configuration: ServiceConfiguration, _ logger: Logger) throws -> Transport
  /// Waits until the transport is bound and describes the address (`127.0.0.1:7001`); the runner
  /// logs it. `nil`: the transport cannot tell.
  public var listeningAddress: (@Sendable (_ transport: Transport) async throws -> String)?

  public init(
    makeTransport: @escaping @Sendable (_ configuration: ServiceConfiguration, _ logger: Logger) throws -> Transport,
    listeningAddress: (@Sendable (_ transport: Transport) async throws -> String)? = nil
  ) {
    self.makeTransport = makeTransport
    self.listeningAddress = listeningAddress
  }
}
