import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension DispatchHandler {
  public func getMonitorSnapshot(
    request: Binario_Dispatch_V1_GetMonitorSnapshotRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_GetMonitorSnapshotResponse {
    let value = try await domain.monitorSnapshot()
    return .with { $0.snapshot = .init(value) }
  }

  public func watchMonitor(
    request: Binario_Dispatch_V1_WatchMonitorRequest,
    response: RPCWriter<Binario_Dispatch_V1_WatchMonitorResponse>,
    context: ServerContext
  ) async throws {
    let feed = domain.feeds.monitor()
    defer { feed.end() }
    try await withRPCCancellationHandler {
      var last: MonitorSnapshot?
      var signals = feed.signals.makeAsyncIterator()
      repeat {
        let snapshot = try await domain.monitorSnapshot()
        // Positions alone do not change the control room's picture; skip a snapshot equal but
        // for its time.
        if var previous = last {
          previous.takenAt = snapshot.takenAt
          if previous == snapshot { continue }
        }
        last = snapshot
        try await response.write(.with { $0.snapshot = .init(snapshot) })
      } while await signals.next() != nil
    } onCancelRPC: {
      feed.end()
    }
  }

  public func listTaxiAlerts(
    request: Binario_Dispatch_V1_ListTaxiAlertsRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_ListTaxiAlertsResponse {
    let alerts = try await domain.alerts()
    return .with {
      $0.open = alerts.open.map { Binario_Dispatch_V1_TaxiAlert($0) }
      $0.acknowledged = alerts.acknowledged.map { Binario_Dispatch_V1_TaxiAlert($0) }
    }
  }

  public func acknowledgeTaxiAlert(
    request: Binario_Dispatch_V1_AcknowledgeTaxiAlertRequest,
    context: ServerContext
  ) async throws -> Binario_Dispatch_V1_AcknowledgeTaxiAlertResponse {
    let alert = try await domain.acknowledgeAlert(id: request.alertID, by: try Self.user())
    return .with { $0.alert = .init(alert) }
  }
}
