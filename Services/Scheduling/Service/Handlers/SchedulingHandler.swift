import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import Logging
import SwiftProtobuf
import Synchronization

/// The gRPC face of the timetable: translates `binario.scheduling.v1.Scheduling` messages to
/// ``SchedulingDomain`` calls and its errors to statuses. Register it behind
/// ``BinarioAuth/AuthorizationServerInterceptor`` with ``BinarioAuth/MethodAccessPolicy/scheduling``,
/// which sets ``BinarioAuth/CallerIdentity/current`` and refuses internal methods to anyone but
/// the services allowed.
public struct SchedulingHandler: Binario_Scheduling_V1_Scheduling.SimpleServiceProtocol {
  let domain: SchedulingDomain
  let logger: Logger
  /// The last response of each board, reused while the domain returns the same edition.
  let renderedBoards = RenderedBoards()

  public init(domain: SchedulingDomain, logger: Logger = Logger(label: "scheduling")) {
    self.domain = domain
    self.logger = logger
  }

  /// A board's departures as the protos have them: each run with its stops from the station on.
  static func departures(of board: DepartureBoard) -> [Binario_Scheduling_V1_Departure] {
    board.departures.map { departure in
      .with {
        $0.run = Binario_Scheduling_V1_Run(departure.run, fromSequence: departure.sequence)
        $0.sequence = Int32(departure.sequence)
      }
    }
  }
}

/// The signed-in caller, or `UNAUTHENTICATED`.
func caller() throws -> CallerIdentity {
  try CallerIdentity.signedIn()
}

extension SchedulingHandler {
  /// A user id an internal caller names, or `INVALID_ARGUMENT`.
  static func userID(_ raw: String) throws -> String {
    let id = raw.trimmingCharacters(in: .whitespaces)
    guard !id.isEmpty else { throw ServiceError.invalid("user_id", "a user id is required") }
    return id
  }
}
