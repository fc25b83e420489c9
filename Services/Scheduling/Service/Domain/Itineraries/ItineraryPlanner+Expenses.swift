import BinarioDomain
import Foundation

/// What a person writes about an expense.
public struct ItineraryExpenseDraft: Sendable {
  public var description: String
  public var amountMinor: Int64
  public var currency: String
  /// Empty: the author.
  public var paidBy: String
  public var split: ItineraryExpense.Split
  /// Empty with an equal split: every member now.
  public var parts: [(userID: String, value: Int64)]
  public var eventID: String
  public var settlement: Bool
  public var spentAt: Date?

  public init(
    description: String,
    amountMinor: Int64,
    currency: String,
    paidBy: String,
    split: ItineraryExpense.Split,
    parts: [(userID: String, value: Int64)],
    eventID: String = "",
    settlement: Bool = false,
    spentAt: Date? = nil
  ) {
    self.description = description
    self.amountMinor = amountMinor
    self.currency = currency
    self.paidBy = paidBy
    self.split = split
    self.parts = parts
    self.eventID = eventID
    self.settlement = settlement
    self.spentAt = spentAt
  }
}

/// A trip's money per currency: each person's standing and the transfers that settle up.
public struct ItineraryBalances: Sendable {
  public struct Currency: Sendable {
    public var currency: String
    /// Every expense but settlements.
    public var spent: Money
    public var balances: [ItineraryBalance]
    public var transfers: [SettleUpTransfer]
  }

  public var currencies: [Currency]
  public var estimatedCost: Money
  /// The events' costs, per currency.
  public var eventsCost: [Money]
  /// The people on the trip now (organiser and members): the others in the balances left or were removed.
  public var memberIDs: [String]
}

extension ItineraryPlanner {
  /// Records an expense (organiser or member); everyone else on the trip is told. With an
  /// `idempotencyKey` the author used on this trip before, returns that expense and adds nothing.
  public func addExpense(
    userID: String,
    itineraryID: String,
    _ draft: ItineraryExpenseDraft,
    idempotencyKey rawKey: String = ""
  ) async throws -> ItineraryExpense {
    let (itinerary, invites) = try visible(itineraryID, to: userID)
    let key = rawKey.trimmingCharacters(in: .whitespaces)
    if key.count > 100 { throw ServiceError.invalid("idempotency_key", "an idempotency key has at most 100 characters") }
    let now = clock.now()
    let expense = try checked(draft, id: UUID().uuidString.lowercased(), itinerary: itinerary, invites: invites, by: userID, at: now)
    let name = try await directory.accounts(ids: [expense.paidBy]).first?.displayName ?? ""
    return try await store.insertExpense(
      expense,
      idempotencyKey: key.isEmpty ? nil : key,
      notice: Self.expenseNotice(expense, payer: name, itinerary, invites, by: userID, removed: false),
      onCommitted: notifications.onCommitted
    )
  }

  /// The trip's expenses, newest first.
  public func expenses(userID: String, itineraryID: String) async throws -> [ItineraryExpense] {
    let (itinerary, _) = try visible(itineraryID, to: userID)
    return try store.expenses(itineraryID: itinerary.id)
  }

  /// Replaces an expense (organiser or member).
  public func updateExpense(
    userID: String,
    itineraryID: String,
    expenseID: String,
    _ draft: ItineraryExpenseDraft
  ) async throws
    -> ItineraryExpense
  {
    let (itinerary, invites) = try visible(itineraryID, to: userID)
    guard let existing = try store.expenses(itineraryID: itinerary.id).first(where: { $0.id == expenseID }) else {
      throw ServiceError.notFound("\(itinerary.name) has no expense \(expenseID)")
    }
    var expense = try checked(draft, id: existing.id, itinerary: itinerary, invites: invites, by: userID, at: clock.now())
    expense.createdBy = existing.createdBy
    expense.createdAt = existing.createdAt
    if draft.spentAt == nil { expense.spentAt = existing.spentAt }
    let name = try await directory.accounts(ids: [expense.paidBy]).first?.displayName ?? ""
    try await store.replaceExpense(
      expense,
      at: clock.now(),
      notice: Self.expenseNotice(expense, payer: name, itinerary, invites, by: userID, removed: false),
      onCommitted: notifications.onCommitted
    )
    return expense
  }

  public func deleteExpense(userID: String, itineraryID: String, expenseID: String) async throws {
    let (itinerary, invites) = try visible(itineraryID, to: userID)
    guard let expense = try store.expenses(itineraryID: itinerary.id).first(where: { $0.id == expenseID }) else {
      throw ServiceError.notFound("\(itinerary.name) has no expense \(expenseID)")
    }
    _ = try await store.deleteExpense(
      id: expense.id,
      itineraryID: itinerary.id,
      at: clock.now(),
      notice: Self.expenseNotice(expense, payer: "", itinerary, invites, by: userID, removed: true),
      onCommitted: notifications.onCommitted
    )
  }

  /// Per currency, each person's paid, share and balance (the people on the trip first, then
  /// those who left), and the fewest transfers that settle up.
  public func balances(userID: String, itineraryID: String) async throws -> ItineraryBalances {
    let (itinerary, invites) = try visible(itineraryID, to: userID)
    let members = Self.memberIDs(itinerary, invites)
    let expenses = try store.expenses(itineraryID: itinerary.id)
    let byCurrency = SettleUp.balances(expenses, people: members)
    var eventsCost: [String: Int64] = [:]
    for event in try store.events(itineraryID: itinerary.id) where event.cost.amountMinor > 0 {
      eventsCost[event.cost.currency, default: 0] += event.cost.amountMinor
    }
    return ItineraryBalances(
      currencies: byCurrency.keys.sorted().map { currency in
        let spent = expenses.filter { $0.amount.currency == currency && !$0.settlement }.reduce(0) { $0 + $1.amount.amountMinor }
        return ItineraryBalances.Currency(
          currency: currency,
          spent: Money(amountMinor: spent, currency: currency),
          balances: byCurrency[currency]!,
          transfers: SettleUp.transfers(byCurrency[currency]!)
        )
      },
      estimatedCost: itinerary.estimatedCost,
      eventsCost: eventsCost.keys.sorted().map { Money(amountMinor: eventsCost[$0]!, currency: $0) },
      memberIDs: members
    )
  }

  /// Display names by user id (someone who left the suite has none).
  public func names(ids: [String]) async -> [String: String] {
    let found = (try? await directory.accounts(ids: Set(ids).filter { !$0.isEmpty }.sorted())) ?? []
    return Dictionary(found.map { ($0.userID, $0.displayName) }, uniquingKeysWith: { first, _ in first })
  }

  /// The organiser, then the members in the order they joined.
  static func memberIDs(_ itinerary: Itinerary, _ invites: [ItineraryInvite]) -> [String] {
    [itinerary.organiserID]
      + invites.filter { $0.status == .accepted }
      .sorted { ($0.answeredAt ?? $0.invitedAt) < ($1.answeredAt ?? $1.invitedAt) }.map(\.inviteeUserID)
  }

  private func checked(
    _ draft: ItineraryExpenseDraft,
    id: String,
    itinerary: Itinerary,
    invites: [ItineraryInvite],
    by userID: String,
    at now: Date
  ) throws -> ItineraryExpense {
    var check = InputValidation()
    let description = check.requiredText(draft.description, field: "expense.description", what: "what it was for", maxLength: 200)
    let amount = check.money(
      draft.amountMinor,
      currency: draft.currency.isEmpty ? itinerary.estimatedCost.currency : draft.currency,
      field: "expense.amount"
    )
    if draft.amountMinor == 0 { check.fail("expense.amount.amount_minor", "an expense of more than zero") }
    let members = Self.memberIDs(itinerary, invites)
    let paidBy = draft.paidBy.trimmingCharacters(in: .whitespaces).isEmpty ? userID : draft.paidBy.trimmingCharacters(in: .whitespaces)
    if !members.contains(paidBy) { check.fail("expense.paid_by_user_id", "the payer is someone on the trip") }
    var parts = draft.parts.map { (userID: $0.userID.trimmingCharacters(in: .whitespaces), value: $0.value) }
    if parts.isEmpty && draft.split == .equal { parts = members.map { ($0, 0) } }
    for (index, part) in parts.enumerated() where !members.contains(part.userID) {
      check.fail("expense.shares[\(index)].user_id", "\(part.userID.isEmpty ? "someone" : part.userID) is not on the trip")
    }
    if Set(parts.map(\.userID)).count != parts.count { check.fail("expense.shares", "each person once") }
    if draft.settlement && (parts.count != 1 || parts.first?.userID == paidBy) {
      check.fail("expense.shares", "a settlement is paid to one other person")
    }
    let eventID = draft.eventID.trimmingCharacters(in: .whitespaces)
    if !eventID.isEmpty, try !store.events(itineraryID: itinerary.id).contains(where: { $0.id == eventID }) {
      check.fail("expense.event_id", "\(itinerary.name) has no event \(eventID)")
    }
    try check.finish()
    let shares: [ItineraryExpense.Share]
    switch ItineraryExpense.divide(
      amount,
      by: draft.settlement ? .exact : draft.split,
      among: draft.settlement ? [(parts[0].userID, amount.amountMinor)] : parts
    ) {
    case .success(let divided): shares = divided
    case .failure(let problem): throw ServiceError.invalid("expense.shares", problem.reason)
    }
    return ItineraryExpense(
      id: id,
      itineraryID: itinerary.id,
      description: description,
      amount: amount,
      paidBy: paidBy,
      split: draft.settlement ? .exact : draft.split,
      shares: shares,
      eventID: eventID.isEmpty ? nil : eventID,
      settlement: draft.settlement,
      spentAt: draft.spentAt ?? now,
      createdBy: userID,
      createdAt: now
    )
  }

  /// Tells everyone on the trip but `author` of an expense added, changed or removed.
  static func expenseNotice(
    _ expense: ItineraryExpense,
    payer: String,
    _ itinerary: Itinerary,
    _ invites: [ItineraryInvite],
    by author: String,
    removed: Bool
  ) -> Notice {
    let people = memberIDs(itinerary, invites)
    let title: PersonText =
      if removed {
        "\(itinerary.name): the expense \(expense.description) was removed"
      } else if expense.settlement {
        "\(itinerary.name): \(PersonText(verbatim: payer)) paid \(expense.amount) to settle up"
      } else {
        "\(itinerary.name): \(PersonText(verbatim: payer)) paid \(expense.amount) for \(expense.description)"
      }
    return Notice(
      userIDs: people.filter { $0 != author },
      content: NotificationContent(
        kind: .itineraryUpdate,
        title: TranslatedText(title),
        body: "",
        data: ["itinerary_id": itinerary.id, "expense_id": expense.id]
      )
    )
  }
}
