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
}
