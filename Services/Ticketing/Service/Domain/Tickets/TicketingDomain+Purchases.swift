import BinarioDomain
import BinarioPayments
import Foundation

extension TicketingDomain {
  /// Pays for a quote and issues one ticket per passenger, or returns what the same
  /// `idempotencyKey` did before (never charging twice, also when two submissions race).
  ///
  /// The key is claimed in the database before the charge, and the charge carries the purchase
  /// id as its reference, so a crash anywhere is resumed by a retry with the same key.
  /// - Throws: ``BinarioDomain/ServiceError/failedPrecondition(_:)`` for a declined card, an
  ///   expired quote, no card on file, or a key already used for another quote.
  public func purchase(
    userID: String,
    quoteID: String,
    idempotencyKey rawKey: String,
    paymentMethodID: String
  ) async throws
    -> PurchaseRecord
  {
    var check = InputValidation()
    let key = check.requiredText(rawKey, field: "idempotency_key", what: "an idempotency key", maxLength: 100)
    let quoteID = check.requiredText(quoteID, field: "quote_id", what: "a quote id")
    try check.finish()
    return try await inFlight.run(key: userID + "\u{0}" + key) {
      try await self.purchaseOnce(userID: userID, quoteID: quoteID, key: key, paymentMethodID: paymentMethodID)
    }
  }

  private func purchaseOnce(userID: String, quoteID: String, key: String, paymentMethodID: String) async throws -> PurchaseRecord {
    var purchase: PurchaseRecord
    let cardToken: String
    let (existing, storedQuote) = try await store.purchaseAndQuote(userID: userID, idempotencyKey: key, quoteID: quoteID)
    if let existing {
      guard existing.quoteID == quoteID else {
        throw ServiceError.failedPrecondition("this idempotency key was used for another purchase; use a new key")
      }
      switch existing.status {
      case .completed: return existing
      case .declined: throw ServiceError.failedPrecondition(existing.failure.map(PersonText.init) ?? "the card was declined")
      case .pending: purchase = existing
      }
      cardToken = try await store.cardToken(purchaseID: purchase.id)
    } else {
      guard let storedQuote, storedQuote.userID == userID else {
        throw ServiceError.notFound("no quote \(quoteID) of yours: ask for a quote first")
      }
      let now = clock.now()
      if now >= storedQuote.expiresAt {
        throw ServiceError.failedPrecondition("the quote expired at \(storedQuote.expiresAt.ISO8601Format()); ask for a new one")
      }
      guard let card = try await accounts.card(userID: userID, paymentMethodID: paymentMethodID) else {
        throw ServiceError.failedPrecondition("no payment card on file: add one first (binario cards add)")
      }
      purchase = PurchaseRecord(
        id: Self.newID("pu"),
        userID: userID,
        idempotencyKey: key,
        quoteID: quoteID,
        status: .pending,
        total: storedQuote.total,
        paymentMethodID: card.paymentMethodID,
        cardLast4: card.last4,
        chargeID: nil,
        failure: nil,
        createdAt: now,
        tickets: [],
        refunded: Money(amountMinor: 0, currency: storedQuote.total.currency)
      )
      try await store.insertPendingPurchase(purchase, cardToken: card.providerToken)
      cardToken = card.providerToken
    }
    guard let quote = storedQuote else { throw ServiceError.notFound("no quote \(quoteID)") }
    let receipt: ChargeReceipt
    do {
      receipt = try await charger.charge(
        ChargeRequest(
          cardToken: cardToken,
          cardLast4: purchase.cardLast4,
          amountMinor: purchase.total.amountMinor,
          currency: purchase.total.currency,
          reference: purchase.id,
          description: quote.lines.map(\.description).joined(separator: "; ")
        )
      )
    } catch PaymentError.declined(let reason) {
      let failure: PersonText = "the card ending \(purchase.cardLast4) was declined: \(reason)"
      try await store.markPurchaseDeclined(id: purchase.id, failure: TranslatedText(failure))
      throw ServiceError.failedPrecondition(failure)
    }
    purchase.chargeID = receipt.chargeID
    purchase.status = .completed
    purchase.tickets = (0 ..< quote.passengers).map { _ in issue(quote.ticket, purchase: purchase) }
    let follows = try await store.completePurchase(purchase, passSubscription: passSubscription(for: purchase))
    await sendFollowChanges(follows)
    return purchase
  }

  private func issue(_ draft: Ticket, purchase: PurchaseRecord) -> Ticket {
    var ticket = draft
    ticket.id = Self.newID("tk")
    ticket.purchaseID = purchase.id
    ticket.holderID = purchase.userID
    ticket.createdAt = purchase.createdAt
    ticket.validationCode = codes.code(
      for: TicketCodeClaims(
        ticketID: ticket.id,
        holderID: ticket.holderID,
        kind: ticket.kind,
        validFrom: ticket.validFrom,
        validUntil: ticket.validUntil
      )
    )
    return ticket
  }

  /// A pass shows among its holder's subscriptions (category Transport) until it expires: its last
  /// day is the one before the start of the day it stops being valid.
  private func passSubscription(for purchase: PurchaseRecord) -> Subscription? {
    guard let pass = purchase.tickets.first, pass.kind == .pass, let period = pass.passPeriod else { return nil }
    let start = CalendarDate(pass.validFrom, in: zone)
    return Subscription(
      id: Self.newID("sb"),
      ownerID: purchase.userID,
      details: SubscriptionDetails(
        serviceName: "Trenord",
        customServiceName: false,
        planType: pass.description,
        customPlanType: true,
        startDate: start,
        period: period == .monthly ? .monthly : .yearly,
        price: pass.price,
        cardLast4: purchase.cardLast4,
        automaticRenewal: false,
        category: .transport
      ),
      memberIDs: [],
      nextRenewal: start.adding(months: period == .monthly ? 1 : 12),
      ticketID: pass.id,
      createdAt: purchase.createdAt,
      endsOn: CalendarDate(pass.validUntil, in: zone).adding(days: -1)
    )
  }

  /// Tells scheduling about runs to follow or stop following; what fails stays recorded for
  /// ``retryFollowChanges()``, except a run the timetable no longer has (nothing to follow).
  func sendFollowChanges(_ changes: [RunFollowChange]) async {
    for change in changes {
      do {
        do {
          try await timetable.setFollowing(change)
        } catch ServiceError.notFound(_) {}
        try await store.markFollowChangeSent(id: change.id)
      } catch {
        // Left for the retry job.
      }
    }
  }

  /// Removes the quotes nobody bought within a day of making them.
  @discardableResult
  public func removeExpiredQuotes() async throws -> Int {
    try await store.removeQuotes(expiredBefore: clock.now().addingTimeInterval(-86_400))
  }

  /// Sends every recorded follow change scheduling has not acknowledged yet.
  /// - Returns: How many are still waiting.
  @discardableResult
  public func retryFollowChanges() async throws -> Int {
    await sendFollowChanges(try await store.pendingFollowChanges())
    return try await store.pendingFollowChanges().count
  }

  /// The purchases of `userID`, newest first: `limit` of them after `cursor` (the last one of
  /// the previous page), and the cursor of the next page.
  public func purchases(
    userID: String,
    after cursor: PurchaseCursor?,
    limit rawLimit: Int
  ) async throws -> (
    [PurchaseRecord], PurchaseCursor?
  ) {
    let limit = try Paging.size(rawLimit)
    let page = try await store.completedPurchases(userID: userID, after: cursor, limit: limit + 1)
    let shown = Array(page.prefix(limit))
    let next = page.count > limit ? shown.last.map { PurchaseCursor(createdAt: $0.createdAt, id: $0.id) } : nil
    return (shown, next)
  }
}

/// Where a page of purchases ends.
public struct PurchaseCursor: Sendable, Hashable {
  public var createdAt: Date
  public var id: String

  public init(createdAt: Date, id: String) {
    self.createdAt = createdAt
    self.id = id
  }
}
