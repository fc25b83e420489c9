import Foundation
import Logging

/// The background job that expires unanswered offers: it sleeps until the next pending offer
/// expires (at most `poll`, so an offer made meanwhile is seen in time) and expires what is due.
/// Expiry is a state change like any other, so a restart simply expires what fell due while the
/// process was down.
public struct OfferTimeouts: Sendable {
  let domain: DispatchDomain
  let logger: Logger
  let poll: Duration

  public init(domain: DispatchDomain, logger: Logger, poll: Duration = .milliseconds(250)) {
    self.domain = domain
    self.logger = logger
    self.poll = poll
  }

  /// Runs until the task is cancelled.
  public func run() async {
    while !Task.isCancelled {
      do {
        // A read first (on this thread): the write only when something is due.
        if let next = try await domain.nextOfferExpiry(), next <= domain.clock.now() {
          try await domain.expireDueOffers()
        }
        let wait = try await domain.nextOfferExpiry().map { $0.timeIntervalSince(domain.clock.now()) } ?? .infinity
        try? await Task.sleep(for: min(poll, .milliseconds(Int(max(0, min(wait, 3600)) * 1000))))
      } catch {
        logger.warning("expiring offers failed; retrying", metadata: ["error": "\(error)"])
        try? await Task.sleep(for: .seconds(1))
      }
    }
  }
}
