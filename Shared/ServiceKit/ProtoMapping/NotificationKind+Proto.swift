import BinarioDomain
import BinarioProto

// A notification's kind in the contract (`binario.scheduling.v1.NotificationKind`), the one
// mapping the notification centre and every sender use.

extension NotificationKind {
  /// `nil` for `UNSPECIFIED` and values this build does not know.
  public init?(_ kind: Binario_Scheduling_V1_NotificationKind) {
    switch kind {
    case .tripDelay: self = .tripDelay
    case .platformChange: self = .platformChange
    case .cancellation: self = .cancellation
    case .itineraryInvite: self = .itineraryInvite
    case .itineraryUpdate: self = .itineraryUpdate
    case .deal: self = .deal
    case .welcome: self = .welcome
    case .taxiUpdate: self = .taxiUpdate
    case .renewalReminder: self = .renewalReminder
    case .ticket: self = .ticket
    case .general: self = .general
    case .serviceNotice: self = .serviceNotice
    case .airAlert: self = .airAlert
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }

  public var proto: Binario_Scheduling_V1_NotificationKind {
    switch self {
    case .tripDelay: .tripDelay
    case .platformChange: .platformChange
    case .cancellation: .cancellation
    case .itineraryInvite: .itineraryInvite
    case .itineraryUpdate: .itineraryUpdate
    case .deal: .deal
    case .welcome: .welcome
    case .taxiUpdate: .taxiUpdate
    case .renewalReminder: .renewalReminder
    case .ticket: .ticket
    case .general: .general
    case .serviceNotice: .serviceNotice
    case .airAlert: .airAlert
    }
  }
}
