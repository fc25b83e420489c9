import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore

/// The gRPC face of subscriptions: `binario.ticketing.v1.Subscriptions` to ``SubscriptionsDomain``.
public struct SubscriptionsHandler: Binario_Ticketing_V1_Subscriptions.SimpleServiceProtocol {
  let domain: SubscriptionsDomain

  public init(domain: SubscriptionsDomain) {
    self.domain = domain
  }

  /// The subscriptions as the caller sees them, with everyone's names and emails.
  private func shown(_ subscriptions: [Subscription], for userID: String) async throws -> [Binario_Ticketing_V1_Subscription] {
    let people = await domain.people(in: subscriptions)
    let leads = try await domain.reminderDays(ownerIDs: subscriptions.map(\.ownerID))
    let today = domain.today
    return subscriptions.map {
      Binario_Ticketing_V1_Subscription($0, for: userID, people: people, today: today, reminderDays: leads[$0.ownerID] ?? 0)
    }
  }

  private func shown(_ subscription: Subscription, for userID: String) async throws -> Binario_Ticketing_V1_Subscription {
    try await shown([subscription], for: userID)[0]
  }

  public func getSubscriptionOptions(
    request: Binario_Ticketing_V1_GetSubscriptionOptionsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetSubscriptionOptionsResponse {
    .with {
      $0.serviceNames = SubscriptionDetails.serviceNames
      $0.planTypes = SubscriptionDetails.planTypes
      $0.categories = SubscriptionCategory.allCases.map(\.proto)
      $0.periods = SubscriptionPeriod.allCases.map(\.proto)
    }
  }

  public func addSubscription(
    request: Binario_Ticketing_V1_AddSubscriptionRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_AddSubscriptionResponse {
    let caller = try CallerIdentity.signedIn()
    let added = try await domain.add(
      ownerID: caller.userID,
      .init(request.details, sharedWith: request.sharedWithUserIds, sharedWithEmails: request.sharedWithEmails),
      idempotencyKey: request.idempotencyKey
    )
    let shown = try await shown(added, for: caller.userID)
    return .with { $0.subscription = shown }
  }

  public func listSubscriptions(
    request: Binario_Ticketing_V1_ListSubscriptionsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ListSubscriptionsResponse {
    let caller = try CallerIdentity.signedIn()
    let (mine, shared) = try await domain.list(userID: caller.userID)
    let all = try await shown(mine + shared, for: caller.userID)
    return .with {
      $0.mine = Array(all.prefix(mine.count))
      $0.sharedWithMe = Array(all.dropFirst(mine.count))
    }
  }

  public func getSubscription(
    request: Binario_Ticketing_V1_GetSubscriptionRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetSubscriptionResponse {
    let caller = try CallerIdentity.signedIn()
    let subscription = try await domain.subscription(userID: caller.userID, subscriptionID: request.subscriptionID)
    let shown = try await shown(subscription, for: caller.userID)
    return .with { $0.subscription = shown }
  }

  public func updateSubscription(
    request: Binario_Ticketing_V1_UpdateSubscriptionRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_UpdateSubscriptionResponse {
    let caller = try CallerIdentity.signedIn()
    let updated = try await domain.update(
      userID: caller.userID,
      subscriptionID: request.subscriptionID,
      .init(request.details, sharedWith: request.sharedWithUserIds, sharedWithEmails: request.sharedWithEmails)
    )
    let shown = try await shown(updated, for: caller.userID)
    return .with { $0.subscription = shown }
  }

  public func deleteSubscription(
    request: Binario_Ticketing_V1_DeleteSubscriptionRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_DeleteSubscriptionResponse {
    try await domain.delete(userID: try CallerIdentity.signedIn().userID, subscriptionID: request.subscriptionID)
    return .init()
  }

  public func withdrawFromSubscription(
    request: Binario_Ticketing_V1_WithdrawFromSubscriptionRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_WithdrawFromSubscriptionResponse {
    try await domain.withdraw(userID: try CallerIdentity.signedIn().userID, subscriptionID: request.subscriptionID)
    return .init()
  }

  public func getSubscriptionsHome(
    request: Binario_Ticketing_V1_GetSubscriptionsHomeRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetSubscriptionsHomeResponse {
    let caller = try CallerIdentity.signedIn()
    let home = try await domain.home(userID: caller.userID, renewals: Int(clamping: request.renewals))
    return .with {
      $0.totals = home.totals.map(Binario_Ticketing_V1_SpendTotal.init)
      $0.subscriptions = UInt32(home.subscriptions)
      $0.nextRenewals = home.nextRenewals.map(Binario_Ticketing_V1_UpcomingRenewal.init)
      $0.due = home.due.map(Binario_Ticketing_V1_UpcomingRenewal.init)
      if let grand = home.grandTotal { $0.grandTotal = .init(grand) }
      $0.ratesDate = home.ratesDate?.description ?? ""
      $0.unconverted = home.unconverted
      $0.budgetNotices = home.budgetNotices.map { notice in
        .with {
          $0.category = notice.category?.proto ?? .unspecified
          $0.budget = .init(notice.budget)
          $0.spent = .init(notice.spent)
        }
      }
    }
  }

  public func getSubscriptionStatistics(
    request: Binario_Ticketing_V1_GetSubscriptionStatisticsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetSubscriptionStatisticsResponse {
    let caller = try CallerIdentity.signedIn()
    let figures = try await domain.statistics(userID: caller.userID)
    return .with {
      $0.categories = figures.perCurrency.map(Binario_Ticketing_V1_CategoryStatistics.init)
      $0.converted = figures.converted.map(Binario_Ticketing_V1_CategoryStatistics.init)
      $0.ratesDate = figures.ratesDate?.description ?? ""
    }
  }

  public func markSubscriptionPaid(
    request: Binario_Ticketing_V1_MarkSubscriptionPaidRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_MarkSubscriptionPaidResponse {
    let caller = try CallerIdentity.signedIn()
    let (subscription, payment) = try await domain.markPaid(
      userID: caller.userID,
      subscriptionID: request.subscriptionID,
      dueDate: request.dueDate,
      paidOn: request.paidOn
    )
    let shown = try await shown(subscription, for: caller.userID)
    let people = await domain.people(ids: payment.paidBy.map { [$0] } ?? [])
    return .with {
      $0.subscription = shown
      $0.payment = .init(payment, people: people)
    }
  }

  public func listSubscriptionPayments(
    request: Binario_Ticketing_V1_ListSubscriptionPaymentsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ListSubscriptionPaymentsResponse {
    let caller = try CallerIdentity.signedIn()
    let (payments, total) = try await domain.payments(userID: caller.userID, subscriptionID: request.subscriptionID)
    let people = await domain.people(ids: payments.compactMap(\.paidBy))
    return .with {
      $0.payments = payments.map { .init($0, people: people) }
      $0.totalPaid = .init(total)
    }
  }

  public func pauseSubscription(
    request: Binario_Ticketing_V1_PauseSubscriptionRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_PauseSubscriptionResponse {
    let caller = try CallerIdentity.signedIn()
    let paused = try await domain.pause(userID: caller.userID, subscriptionID: request.subscriptionID)
    let shown = try await shown(paused, for: caller.userID)
    return .with { $0.subscription = shown }
  }

  public func cancelSubscription(
    request: Binario_Ticketing_V1_CancelSubscriptionRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_CancelSubscriptionResponse {
    let caller = try CallerIdentity.signedIn()
    let cancelled = try await domain.cancel(userID: caller.userID, subscriptionID: request.subscriptionID, endsOn: request.endsOn)
    let shown = try await shown(cancelled, for: caller.userID)
    return .with { $0.subscription = shown }
  }

  public func resumeSubscription(
    request: Binario_Ticketing_V1_ResumeSubscriptionRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ResumeSubscriptionResponse {
    let caller = try CallerIdentity.signedIn()
    let resumed = try await domain.resume(userID: caller.userID, subscriptionID: request.subscriptionID)
    let shown = try await shown(resumed, for: caller.userID)
    return .with { $0.subscription = shown }
  }

  public func getSubscriptionSettings(
    request: Binario_Ticketing_V1_GetSubscriptionSettingsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetSubscriptionSettingsResponse {
    let settings = try await domain.settings(userID: try CallerIdentity.signedIn().userID)
    return .with { $0.settings = .init(settings) }
  }

  public func updateSubscriptionSettings(
    request: Binario_Ticketing_V1_UpdateSubscriptionSettingsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_UpdateSubscriptionSettingsResponse {
    let given = request.settings
    let settings = try await domain.updateSettings(
      userID: try CallerIdentity.signedIn().userID,
      reminderDays: Int(given.reminderDays),
      homeRenewals: Int(given.homeRenewals),
      mainCurrency: given.mainCurrency,
      monthlyBudgetMinor: given.monthlyBudgetMinor,
      categoryBudgets: given.categoryBudgets.map { (SubscriptionCategory($0.category), $0.amountMinor) }
    )
    return .with { $0.settings = .init(settings) }
  }

  public func exportSubscriptions(
    request: Binario_Ticketing_V1_ExportSubscriptionsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ExportSubscriptionsResponse {
    let format = SubscriptionFile.Format(request.format) ?? .binarioCSV
    let (content, count) = try await domain.export(userID: try CallerIdentity.signedIn().userID, format: format)
    return .with {
      $0.content = content
      $0.fileName = format.fileName
      $0.mediaType = format.mediaType
      $0.subscriptions = UInt32(count)
    }
  }

  public func importSubscriptions(
    request: Binario_Ticketing_V1_ImportSubscriptionsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ImportSubscriptionsResponse {
    let caller = try CallerIdentity.signedIn()
    let result = try await domain.importFile(userID: caller.userID, content: request.content)
    let shown = try await shown(result.added, for: caller.userID)
    return .with {
      $0.format = result.format.proto
      $0.imported = shown
      $0.problems = result.problems.map { problem in
        .with {
          $0.line = UInt32(clamping: problem.line)
          $0.name = problem.name
          $0.reason = problem.reason.rendered(in: RequestLanguage.current)
        }
      }
    }
  }

  public func getExchangeRates(
    request: Binario_Ticketing_V1_GetExchangeRatesRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_GetExchangeRatesResponse {
    guard let rates = try await domain.exchangeRates() else { return .init() }
    return .with {
      $0.ratesDate = rates.date.description
      $0.rates = rates.perEuro.keys.sorted().map { currency in
        .with {
          $0.currency = currency
          $0.perEuro = "\(rates.perEuro[currency]!)"
        }
      }
    }
  }

  public func loadExchangeRates(
    request: Binario_Ticketing_V1_LoadExchangeRatesRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_LoadExchangeRatesResponse {
    let rates = try await domain.loadExchangeRates(request.content)
    return .with {
      $0.ratesDate = rates.date.description
      $0.currencies = UInt32(rates.perEuro.count)
    }
  }
}
