import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

/// The gRPC face of shared itineraries (`binario.scheduling.v1.Itineraries`); every method is
/// for a signed-in caller.
public struct ItinerariesHandler: Binario_Scheduling_V1_Itineraries.SimpleServiceProtocol {
  let planner: ItineraryPlanner

  public init(planner: ItineraryPlanner) {
    self.planner = planner
  }

  public func createItinerary(
    request: Binario_Scheduling_V1_CreateItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_CreateItineraryResponse {
    let userID = try caller().userID
    let created = try await planner.create(
      userID: userID,
      name: request.name,
      destination: request.destination,
      startDate: request.startDate,
      endDate: request.endDate,
      estimatedCostMinor: request.estimatedCost.amountMinor,
      currency: request.estimatedCost.currency,
      key: try IdempotencyKey(caller: userID, key: request.idempotencyKey)
    )
    return .with { $0.itinerary = Binario_Scheduling_V1_Itinerary(created) }
  }

  public func listItineraries(
    request: Binario_Scheduling_V1_ListItinerariesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListItinerariesResponse {
    let all = try await planner.list(userID: try caller().userID)
    return .with { $0.itineraries = all.map(Binario_Scheduling_V1_Itinerary.init) }
  }

  public func getItinerary(
    request: Binario_Scheduling_V1_GetItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetItineraryResponse {
    let details = try await planner.get(userID: try caller().userID, itineraryID: request.itineraryID)
    return .with { $0.itinerary = Binario_Scheduling_V1_Itinerary(details) }
  }

  public func deleteItinerary(
    request: Binario_Scheduling_V1_DeleteItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_DeleteItineraryResponse {
    try await planner.delete(userID: try caller().userID, itineraryID: request.itineraryID)
    return .init()
  }

  public func inviteToItinerary(
    request: Binario_Scheduling_V1_InviteToItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_InviteToItineraryResponse {
    var userID: String?
    var email: String?
    switch request.invitee {
    case .userID(let id): userID = id
    case .email(let address): email = address
    case nil: break
    }
    let invite = try await planner.invite(
      userID: try caller().userID,
      itineraryID: request.itineraryID,
      inviteeUserID: userID,
      email: email
    )
    return .with { $0.invite = Binario_Scheduling_V1_ItineraryInvite(invite) }
  }

  public func listItineraryInvites(
    request: Binario_Scheduling_V1_ListItineraryInvitesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListItineraryInvitesResponse {
    let pending = try await planner.pendingInvites(userID: try caller().userID)
    return .with {
      $0.invites = pending.map { invite, itinerary in
        .with {
          $0.invite = Binario_Scheduling_V1_ItineraryInvite(invite)
          $0.itinerary = Binario_Scheduling_V1_Itinerary(summary: itinerary)
        }
      }
    }
  }

  public func respondToItineraryInvite(
    request: Binario_Scheduling_V1_RespondToItineraryInviteRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_RespondToItineraryInviteResponse {
    let invite = try await planner.respond(userID: try caller().userID, inviteID: request.inviteID, accept: request.accept)
    return .with { $0.invite = Binario_Scheduling_V1_ItineraryInvite(invite) }
  }

  public func leaveItinerary(
    request: Binario_Scheduling_V1_LeaveItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_LeaveItineraryResponse {
    try await planner.leave(userID: try caller().userID, itineraryID: request.itineraryID)
    return .init()
  }

  public func addItineraryEvent(
    request: Binario_Scheduling_V1_AddItineraryEventRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_AddItineraryEventResponse {
    let userID = try caller().userID
    let event = try await planner.addEvent(
      userID: userID,
      itineraryID: request.itineraryID,
      try ItineraryEventDraft(request.event),
      key: try IdempotencyKey(caller: userID, key: request.idempotencyKey)
    )
    return .with { $0.event = Binario_Scheduling_V1_ItineraryEvent(event, ride: planner.trainLegs(of: [event])[event.id]) }
  }

  public func updateItineraryEvent(
    request: Binario_Scheduling_V1_UpdateItineraryEventRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_UpdateItineraryEventResponse {
    let event = request.event
    let fields = try Self.fields(
      request.hasUpdateMask ? request.updateMask.paths : [],
      prefix: "event.",
      given: [
        (ItineraryEventField.title, !event.title.isEmpty), (.place, !event.place.isEmpty), (.latitude, event.latitude != 0),
        (.longitude, event.longitude != 0), (.startsAt, event.hasStartsAt), (.endsAt, event.hasEndsAt), (.notes, !event.notes.isEmpty),
        (.cost, event.hasCost), (.train, event.hasTrain),
      ]
    )
    let updated = try await planner.updateEvent(
      userID: try caller().userID,
      itineraryID: request.itineraryID,
      eventID: request.eventID,
      try ItineraryEventDraft(event),
      fields: fields
    )
    return .with { $0.event = Binario_Scheduling_V1_ItineraryEvent(updated, ride: planner.trainLegs(of: [updated])[updated.id]) }
  }

  /// The fields a PATCH changes: those its mask's paths name (a path may start with `prefix`, the
  /// message's field name; "*" names them all), or without a mask those `given`. An unknown path
  /// is refused by name.
  static func fields<Field: RawRepresentable & CaseIterable & Hashable>(
    _ paths: [String],
    prefix: String = "",
    given: [(Field, Bool)]
  ) throws -> Set<Field> where Field.RawValue == String {
    if paths.isEmpty { return Set(given.filter(\.1).map(\.0)) }
    if paths == ["*"] { return Set(Field.allCases) }
    var fields = Set<Field>()
    for path in paths {
      let name = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
      // proto3 JSON writes a mask's paths in lowerCamelCase.
      let snake = name.reduce(into: "") { $0 += $1.isUppercase ? "_" + $1.lowercased() : String($1) }
      guard let field = Field(rawValue: snake) else {
        throw ServiceError.invalid(
          "update_mask",
          "\"\(path)\" is not a field that changes: \(Field.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      fields.insert(field)
    }
    return fields
  }

  public func updateItinerary(
    request: Binario_Scheduling_V1_UpdateItineraryRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_UpdateItineraryResponse {
    let fields = try Self.fields(
      request.hasUpdateMask ? request.updateMask.paths : [],
      given: [
        (ItineraryField.name, !request.name.isEmpty), (.destination, !request.destination.isEmpty), (.startDate, !request.startDate.isEmpty),
        (.endDate, !request.endDate.isEmpty), (.estimatedCost, request.hasEstimatedCost),
      ]
    )
    let details = try await planner.update(
      userID: try caller().userID,
      itineraryID: request.itineraryID,
      fields: fields,
      name: request.name,
      destination: request.destination,
      startDate: request.startDate,
      endDate: request.endDate,
      estimatedCostMinor: request.estimatedCost.amountMinor,
      currency: request.estimatedCost.currency
    )
    return .with { $0.itinerary = Binario_Scheduling_V1_Itinerary(details) }
  }

  public func removeItineraryInvite(
    request: Binario_Scheduling_V1_RemoveItineraryInviteRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_RemoveItineraryInviteResponse {
    try await planner.removeInvite(userID: try caller().userID, itineraryID: request.itineraryID, inviteID: request.inviteID)
    return .init()
  }

  public func exportItineraryCalendar(
    request: Binario_Scheduling_V1_ExportItineraryCalendarRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ExportItineraryCalendarResponse {
    let (content, fileName) = try await planner.calendar(userID: try caller().userID, itineraryID: request.itineraryID)
    return .with {
      $0.content = content
      $0.fileName = fileName
    }
  }

  /// Everyone's names in `expenses`.
  private func names(_ expenses: [ItineraryExpense]) async -> [String: String] {
    await planner.names(ids: expenses.flatMap { [$0.paidBy] + $0.shares.map(\.userID) })
  }

  public func addItineraryExpense(
    request: Binario_Scheduling_V1_AddItineraryExpenseRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_AddItineraryExpenseResponse {
    let expense = try await planner.addExpense(
      userID: try caller().userID,
      itineraryID: request.itineraryID,
      ItineraryExpenseDraft(request.expense),
      idempotencyKey: request.idempotencyKey
    )
    let names = await names([expense])
    return .with { $0.expense = .init(expense, names: names) }
  }

  public func listItineraryExpenses(
    request: Binario_Scheduling_V1_ListItineraryExpensesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListItineraryExpensesResponse {
    let expenses = try await planner.expenses(userID: try caller().userID, itineraryID: request.itineraryID)
    let names = await names(expenses)
    return .with { $0.expenses = expenses.map { .init($0, names: names) } }
  }

  public func updateItineraryExpense(
    request: Binario_Scheduling_V1_UpdateItineraryExpenseRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_UpdateItineraryExpenseResponse {
    let expense = try await planner.updateExpense(
      userID: try caller().userID,
      itineraryID: request.itineraryID,
      expenseID: request.expenseID,
      ItineraryExpenseDraft(request.expense)
    )
    let names = await names([expense])
    return .with { $0.expense = .init(expense, names: names) }
  }

  public func deleteItineraryExpense(
    request: Binario_Scheduling_V1_DeleteItineraryExpenseRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_DeleteItineraryExpenseResponse {
    try await planner.deleteExpense(userID: try caller().userID, itineraryID: request.itineraryID, expenseID: request.expenseID)
    return .init()
  }

  public func getItineraryBalances(
    request: Binario_Scheduling_V1_GetItineraryBalancesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetItineraryBalancesResponse {
    let balances = try await planner.balances(userID: try caller().userID, itineraryID: request.itineraryID)
    let names = await planner.names(ids: balances.currencies.flatMap { $0.balances.map(\.userID) })
    return .with {
      $0.estimatedCost = Binario_Type_V1_Money(balances.estimatedCost)
      $0.eventsCost = balances.eventsCost.map(Binario_Type_V1_Money.init)
      $0.currencies = balances.currencies.map { currency in
        .with {
          $0.currency = currency.currency
          $0.spent = Binario_Type_V1_Money(currency.spent)
          $0.members = currency.balances.map { balance in
            .with {
              $0.userID = balance.userID
              $0.displayName = names[balance.userID] ?? ""
              $0.paid = Binario_Type_V1_Money(balance.paid)
              $0.share = Binario_Type_V1_Money(balance.share)
              $0.balance = Binario_Type_V1_Money(balance.balance)
              $0.member = balances.memberIDs.contains(balance.userID)
            }
          }
          $0.transfers = currency.transfers.map { transfer in
            .with {
              $0.fromUserID = transfer.from
              $0.fromName = names[transfer.from] ?? ""
              $0.toUserID = transfer.to
              $0.toName = names[transfer.to] ?? ""
              $0.amount = Binario_Type_V1_Money(transfer.amount)
            }
          }
        }
      }
    }
  }

  public func deleteItineraryEvent(
    request: Binario_Scheduling_V1_DeleteItineraryEventRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_DeleteItineraryEventResponse {
    try await planner.deleteEvent(userID: try caller().userID, itineraryID: request.itineraryID, eventID: request.eventID)
    return .init()
  }
}
