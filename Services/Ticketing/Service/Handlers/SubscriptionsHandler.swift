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

  /// The subscriptions as the caller sees them, with everyone's names.
  private func shown(_ subscriptions: [Subscription], for userID: String) async -> [Binario_Ticketing_V1_Subscription] {
    let names = await domain.names(in: subscriptions)
    let today = domain.today
    return subscriptions.map { Binario_Ticketing_V1_Subscription($0, for: userID, names: names, today: today) }
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
      .init(request.details, sharedWith: request.sharedWithUserIds),
      idempotencyKey: request.idempotencyKey
    )
    let shown = await shown([added], for: caller.userID)[0]
    return .with { $0.subscription = shown }
  }

  public func listSubscriptions(
    request: Binario_Ticketing_V1_ListSubscriptionsRequest,
    context: ServerContext
  ) async throws -> Binario_Ticketing_V1_ListSubscriptionsResponse {
    let caller = try CallerIdentity.signedIn()
    let (mine, shared) = try await domain.list(userID: caller.userID)
    let all = await shown(mine + shared, for: caller.userID)
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
    let shown = await shown([subscription], for: caller.userID)[0]
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
      .init(request.details, sharedWith: request.sharedWithUserIds)
    )
    let shown = await shown([updated], for: caller.userID)[0]
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
      $0.totals = home.totals.map { total in
        .with {
          $0.monthly = .init(total.monthly)
          $0.yearly = .init(total.yearly)
        }
      }
      $0.subscriptions = UInt32(home.subscriptions)
      $0.nextRenewals = home.nextRenewals.map { renewal in
        .with {
          $0.subscriptionID = renewal.subscription.id
          $0.serviceName = renewal.subscription.details.serviceName
          $0.date = renewal.date.description
          $0.daysLeft = Int32(renewal.daysLeft)
          $0.yourShare = .init(renewal.yourShare)
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
      $0.categories = figures.map { figure in
        .with {
          $0.category = figure.category.proto
          $0.subscriptions = UInt32(figure.subscriptions)
          $0.monthly = .init(figure.monthly)
          $0.shareBasisPoints = UInt32(figure.shareBasisPoints)
        }
      }
    }
  }
}
