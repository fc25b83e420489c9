import BinarioDomain
import BinarioProto
import BinarioTransport
import Foundation
import Logging
import NIOCore
import ServiceLifecycle

/// Keeps the ``SigningKeyStore`` filled from identity's `GetSigningKeys`: fetches at start,
/// retrying with backoff until identity answers, then again whenever a token names an unknown key
/// (at most once per `minimumRefreshInterval`, so forged `kid`s cannot make the gateway hammer
/// identity). Runs until graceful shutdown or cancellation.
public struct SigningKeysFetcher: Service {
  static let method = "/" + Binario_Identity_V1_Identity.Method.GetSigningKeys.descriptor.fullyQualifiedMethod

  let identity: UpstreamConnections
  let store: SigningKeyStore
  let loop: any EventLoop
  let backoff: Backoff
  let minimumRefreshInterval: Duration
  let logger: Logger

  public func run() async throws {
    do {
      try await self.fetchUntilStopped()
    } catch is CancellationError {
      // Stopping while fetching or waiting to fetch again (identity may stop first): not a failure.
    }
  }

  private func fetchUntilStopped() async throws {
    try await cancelWhenGracefulShutdown {
      try await self.fetchUntilItWorks()
      var last = ContinuousClock.now
      for await keyID in self.store.refreshRequests {
        let wait = self.minimumRefreshInterval - (ContinuousClock.now - last)
        if wait > .zero { try await Task.sleep(for: wait) }
        self.logger.info("a token named an unknown signing key; fetching identity's keys again", metadata: ["kid": "\(keyID)"])
        try await self.fetchUntilItWorks()
        last = ContinuousClock.now
      }
    }
  }

  private func fetchUntilItWorks() async throws {
    var failures = 0
    while true {
      do {
        let response: Binario_Identity_V1_GetSigningKeysResponse = try await self.identity.unary(
          method: Self.method,
          request: Binario_Identity_V1_GetSigningKeysRequest(),
          timeout: .seconds(5),
          on: self.loop
        )
        let keys = Dictionary(
          response.keys.filter { $0.algorithm == "EdDSA" }.map { ($0.keyID, $0.publicKey) },
          uniquingKeysWith: { _, last in last }
        )
        try self.store.install(rawKeys: keys)
        self.logger.info("loaded identity's signing keys", metadata: ["kids": "\(keys.keys.sorted())"])
        return
      } catch {
        failures += 1
        let delay = self.backoff.delay(afterFailures: failures)
        self.logger.log(
          level: PeerFailureLog.level(attempt: failures, peerAnsweredBefore: self.store.verifier != nil),
          "cannot fetch identity's signing keys; retrying",
          metadata: ["error": "\(error)", "retry-in": "\(delay)"]
        )
        try await Task.sleep(for: delay)
      }
    }
  }
}
