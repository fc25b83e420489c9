import BinarioDomain
import Foundation
import Testing

@testable import TicketingService

@Suite("Validation")
struct TicketValidationTests {
  static func bought(_ request: QuoteRequest, _ ticketing: TestTicketing) async throws -> Ticket {
    try await ticketing.accounts.addCard("ada")
    let quote = try await ticketing.domain.quote(userID: "ada", request, passengers: 1)
    return try await ticketing.domain.purchase(userID: "ada", quoteID: quote.id, idempotencyKey: quote.id, paymentMethodID: "")
      .tickets[0]
  }

  @Test("a single ride is used once; its ride lasts the fare table's minutes")
  func single() async throws {
    let ticketing = try await TestTicketing()
    let ticket = try await Self.bought(.zone(zones: "Mi1-Mi3"), ticketing)
    let (used, validation) = try await ticketing.domain.validate(code: ticket.validationCode, inspectorID: "inspector")
    #expect(validation.ride == 1 && used.activeUntil == ticketing.clock.now().addingTimeInterval(90 * 60))
    #expect(try await ticketing.domain.inspect(code: ticket.validationCode).mayTravel)
    let again = await serviceError { _ = try await ticketing.domain.validate(code: ticket.validationCode, inspectorID: "inspector") }
    #expect(again?.isFailedPrecondition == true && again?.description.contains("already used") == true)
    ticketing.clock.advance(by: 91 * 60)
    let (_, mayTravel, reason) = try await ticketing.domain.inspect(code: ticket.validationCode)
    #expect(!mayTravel && reason.contains("ride ended"))
  }

  @Test("a carnet counts down to its last ride")
  func carnet() async throws {
    let ticketing = try await TestTicketing()
    let ticket = try await Self.bought(.carnet(zones: "Mi1-Mi3", rides: 10), ticketing)
    for ride in 1 ... 10 {
      let (used, validation) = try await ticketing.domain.validate(code: ticket.validationCode, inspectorID: "inspector")
      #expect(validation.ride == ride && used.ridesTotal - used.ridesUsed == 10 - ride)
      ticketing.clock.advance(by: 3600)
    }
    let eleventh = await serviceError { _ = try await ticketing.domain.validate(code: ticket.validationCode, inspectorID: "inspector") }
    #expect(eleventh?.description.contains("every one of this ticket's 10 rides was used") == true)
    #expect(try await ticketing.store.validations(ticketID: ticket.id).count == 10)
  }

  @Test("a forged or altered code is refused; a refunded ticket does not travel")
  func forged() async throws {
    let ticketing = try await TestTicketing()
    let ticket = try await Self.bought(.zone(zones: "Mi1-Mi4"), ticketing)
    let parts = ticket.validationCode.split(separator: ".").map(String.init)
    // The payload with one byte changed (the ticket id), the signature kept.
    var payload = Array(Data(base64Encoded: Self.padded(parts[0]))!)
    payload[payload.count / 2] ^= 0x01
    let altered =
      Data(payload).base64EncodedString().replacingOccurrences(of: "=", with: "")
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") + "." + parts[1]
    let refusal = await serviceError { _ = try await ticketing.domain.validate(code: altered, inspectorID: "inspector") }
    #expect(refusal?.isInvalid == true)
    // A code signed with another key (another deployment's) does not verify either.
    let other = try await TestTicketing()
    let foreign = other.codes.code(
      for: TicketCodeClaims(ticketID: ticket.id, holderID: "ada", kind: .zone, validFrom: ticket.validFrom, validUntil: ticket.validUntil)
    )
    #expect(await serviceError { _ = try await ticketing.domain.validate(code: foreign, inspectorID: "i") }?.isInvalid == true)
    #expect(await serviceError { _ = try await ticketing.domain.validate(code: "nonsense", inspectorID: "i") }?.isInvalid == true)

    _ = try await ticketing.domain.refund(userID: "ada", ticketID: ticket.id)
    let refunded = await serviceError { _ = try await ticketing.domain.validate(code: ticket.validationCode, inspectorID: "i") }
    #expect(refunded?.description == "this ticket was refunded")
  }

  @Test("a pass travels any number of times within its dates, not before")
  func pass() async throws {
    let ticketing = try await TestTicketing()
    let ticket = try await Self.bought(
      .pass(period: .monthly, startDate: "2027-03-11", zones: "Mi1-Mi3", from: "", to: "", travelClass: .second),
      ticketing
    )
    let early = await serviceError { _ = try await ticketing.domain.validate(code: ticket.validationCode, inspectorID: "i") }
    #expect(early?.isFailedPrecondition == true)
    ticketing.clock.advance(by: 86_400)
    for _ in 0 ..< 3 { _ = try await ticketing.domain.validate(code: ticket.validationCode, inspectorID: "i") }
    // It shows among the holder's subscriptions, category Transport.
    let (mine, _) = try await ticketing.subscriptions.list(userID: "ada")
    #expect(mine.count == 1 && mine[0].details.category == .transport && mine[0].ticketID == ticket.id)
    #expect(mine[0].nextRenewal.description == "2027-04-11" && mine[0].details.price.amountMinor == 3900)
    // Until it expires: its last day 04-10, a cost while it runs, none after; never due.
    #expect(mine[0].endsOn?.description == "2027-04-10" && mine[0].status(on: ticketing.subscriptions.today) == .active)
    #expect(try await ticketing.subscriptions.home(userID: "ada", renewals: 5).totals.map(\.monthly.amountMinor) == [3900])
    ticketing.clock.advance(by: 31 * 86_400)  // 04-11
    let ended = try await ticketing.subscriptions.subscription(userID: "ada", subscriptionID: mine[0].id)
    #expect(ended.status(on: ticketing.subscriptions.today) == .ended && !ended.isDue(on: ticketing.subscriptions.today))
    let home = try await ticketing.subscriptions.home(userID: "ada", renewals: 5)
    #expect(home.totals.isEmpty && home.subscriptions == 0 && home.nextRenewals.isEmpty && home.due.isEmpty)
  }

  static func padded(_ text: String) -> String {
    let base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    return base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
  }
}
