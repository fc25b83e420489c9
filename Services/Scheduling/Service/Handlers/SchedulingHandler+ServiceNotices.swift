import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension SchedulingHandler {
  public func listServiceNotices(
    request: Binario_Scheduling_V1_ListServiceNoticesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListServiceNoticesResponse {
    let notices = try domain.notices(stationID: request.stationID, lineID: request.lineID)
    return .with { $0.notices = notices.map(self.proto) }
  }

  public func createServiceNotice(
    request: Binario_Scheduling_V1_CreateServiceNoticeRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_CreateServiceNoticeResponse {
    let draft = ServiceNoticeDraft(
      texts: request.texts.map { .init(language: $0.language, title: $0.title, description: $0.description_p) },
      lineIDs: request.lineIds,
      stationIDs: request.stationIds,
      startsAt: request.hasStartsAt ? request.startsAt.date : nil,
      endsAt: request.hasEndsAt ? request.endsAt.date : nil,
      cause: ServiceNotice.Cause(request.cause),
      effect: ServiceNotice.Effect(request.effect)
    )
    let notice = try await domain.createNotice(adminID: try caller().userID, draft, idempotencyKey: request.idempotencyKey)
    return .with { $0.notice = proto(notice) }
  }

  public func endServiceNotice(
    request: Binario_Scheduling_V1_EndServiceNoticeRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_EndServiceNoticeResponse {
    let notice = try await domain.endNotice(id: request.noticeID)
    return .with { $0.notice = proto(notice) }
  }

  public func listAllServiceNotices(
    request: Binario_Scheduling_V1_ListAllServiceNoticesRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_ListAllServiceNoticesResponse {
    let notices = try domain.allNotices()
    return .with { $0.notices = notices.map(self.proto) }
  }

  /// A notice in the contract, with its lines' and stations' names.
  func proto(_ notice: ServiceNotice) -> Binario_Scheduling_V1_ServiceNotice {
    let (lines, stations) = domain.names(lineIDs: notice.lineIDs, stationIDs: notice.stationIDs)
    return .with {
      $0.noticeID = notice.id
      $0.texts = notice.texts.map { text in
        .with {
          $0.language = text.language.rawValue
          $0.title = text.title
          $0.description_p = text.description
        }
      }
      $0.lineIds = notice.lineIDs
      $0.lineNames = lines
      $0.stationIds = notice.stationIDs
      $0.stationNames = stations
      $0.startsAt = Google_Protobuf_Timestamp(date: notice.startsAt)
      $0.endsAt = Google_Protobuf_Timestamp(date: notice.endsAt)
      $0.cause = .init(notice.cause)
      $0.effect = .init(notice.effect)
      $0.createdAt = Google_Protobuf_Timestamp(date: notice.createdAt)
      $0.followersTold = UInt32(clamping: notice.followersTold)
    }
  }
}

extension ServiceNotice.Cause {
  init(_ cause: Binario_Scheduling_V1_NoticeCause) {
    switch cause {
    case .technicalProblem: self = .technicalProblem
    case .strike: self = .strike
    case .demonstration: self = .demonstration
    case .accident: self = .accident
    case .holiday: self = .holiday
    case .weather: self = .weather
    case .maintenance: self = .maintenance
    case .construction: self = .construction
    case .policeActivity: self = .policeActivity
    case .medicalEmergency: self = .medicalEmergency
    case .other, .unspecified, .UNRECOGNIZED: self = .other
    }
  }
}

extension Binario_Scheduling_V1_NoticeCause {
  init(_ cause: ServiceNotice.Cause) {
    switch cause {
    case .other: self = .other
    case .technicalProblem: self = .technicalProblem
    case .strike: self = .strike
    case .demonstration: self = .demonstration
    case .accident: self = .accident
    case .holiday: self = .holiday
    case .weather: self = .weather
    case .maintenance: self = .maintenance
    case .construction: self = .construction
    case .policeActivity: self = .policeActivity
    case .medicalEmergency: self = .medicalEmergency
    }
  }
}

extension ServiceNotice.Effect {
  init(_ effect: Binario_Scheduling_V1_NoticeEffect) {
    switch effect {
    case .noService: self = .noService
    case .reducedService: self = .reducedService
    case .significantDelays: self = .significantDelays
    case .detour: self = .detour
    case .additionalService: self = .additionalService
    case .modifiedService: self = .modifiedService
    case .stopMoved: self = .stopMoved
    case .other, .unspecified, .UNRECOGNIZED: self = .other
    }
  }
}

extension Binario_Scheduling_V1_NoticeEffect {
  init(_ effect: ServiceNotice.Effect) {
    switch effect {
    case .noService: self = .noService
    case .reducedService: self = .reducedService
    case .significantDelays: self = .significantDelays
    case .detour: self = .detour
    case .additionalService: self = .additionalService
    case .modifiedService: self = .modifiedService
    case .other: self = .other
    case .stopMoved: self = .stopMoved
    }
  }
}
