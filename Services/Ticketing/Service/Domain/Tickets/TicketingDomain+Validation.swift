import BinarioDomain
import Foundation

extension TicketingDomain {
  /// Uses a ride of the ticket whose code an inspector scanned.
  /// - Returns: The ticket after it, and the ride's number.
  /// - Throws: ``BinarioDomain/ServiceError/invalid(_:)`` for a forged or altered code;
  ///   ``BinarioDomain/ServiceError/failedPrecondition(_:)`` for a ticket that may not travel.
  public func validate(code: String, inspectorID: String) async throws -> (Ticket, TicketValidation) {
    let claims = try codes.verify(code)
    let now = clock.now()
    return try await store.validate(ticketID: claims.ticketID, holderID: claims.holderID, inspectorID: inspectorID, at: now) {
      ticket throws(ServiceError) in try ticket.validated(at: now)
    }
  }

  /// Whether the ticket whose code was scanned may travel now, without using a ride.
  public func inspect(code: String) async throws -> (Ticket, mayTravel: Bool, reason: String) {
    let claims = try codes.verify(code)
    guard let ticket = try await store.ticket(id: claims.ticketID), ticket.holderID == claims.holderID else {
      throw ServiceError.notFound("no ticket \(claims.ticketID)")
    }
    let (mayTravel, reason) = ticket.mayTravel(at: clock.now())
    return (ticket, mayTravel, reason)
  }
}
