import BinarioDomain
import Foundation

/// Where a ride's state stands. The open states (``isOpen``) hold the passenger (one open ride
/// each); the active ones (``isActive``) hold a taxi.
public enum RideState: String, Sendable, Hashable, CaseIterable {
  /// Looking for a taxi: offered to one taxi at a time, or waiting for one to be free to ask.
  case searching
  /// A driver accepted: the taxi is on its way.
  case allocated
  /// The taxi is at the pickup.
  case arrived
  /// The passenger is on board.
  case inProgress = "in_progress"
  case completed
  case cancelled
  /// No taxi in the pickup zone or its neighbours took it.
  case noTaxi = "no_taxi"

  public var isOpen: Bool { self == .searching || isActive }
  public var isActive: Bool { self == .allocated || self == .arrived || self == .inProgress }
}

/// A resolved pickup or destination: its position, the address it was asked by (empty for a
/// bare position) and its zone (empty outside every zone).
public struct RidePlace: Sendable, Hashable {
  public var position: GeoPoint
  public var address: String
  public var zoneID: String

  public init(position: GeoPoint, address: String, zoneID: String) {
    self.position = position
    self.address = address
    self.zoneID = zoneID
  }
}

/// A passenger's call for a taxi, from the request to its end.
public struct Ride: Sendable, Hashable {
  /// The row's key: what offers point at.
  var seq: Int64 = 0
  public var id: String
  public var passengerUserID: String
  public var passengerName: String
  public var idempotencyKey: String
  public var state: RideState
  public var pickup: RidePlace
  public var destination: RidePlace?
  public var passengers: Int
  public var requestedAt: Date
  public var taxiCode: String?
  public var taxiPlate: String = ""
  public var allocatedAt: Date?
  public var estimatedPickupAt: Date?
  /// What the passenger tells the driver at the pickup (R4).
  public var passengerCode: String
  public var delayed = false
  public var arrivedAt: Date?
  public var startedAt: Date?
  public var endedAt: Date?
  /// The distance driven with the passenger on board, from the driver's position reports.
  public var distanceMetres: Double = 0
  /// The last position counted into ``distanceMetres``.
  var lastPosition: GeoPoint?
  var lastPositionAt: Date?
  public var currency: String
  public var estimatedFareMinor: Int64?
  public var fareMinor: Int64?
  public var cancellationFeeMinor: Int64?
  /// The provider's token of the card the fee is held on (never the card number).
  var cardToken: String
  public var cardLast4: String
  /// The hold of the cancellation fee, released or taken when the ride ends.
  var holdID: String
  /// Whether the money of an ended ride is settled (fare charged or fee taken, hold released).
  var settled = false
  /// Whether the admins were alerted that its taxi stopped reporting.
  var positionAlerted = false
  /// The reservation it was booked as (empty for a ride called now); for a shared ride, the
  /// first member's.
  public var reservationID = ""
  /// A shared ride's group: its members are the group's reservations.
  public var groupID: String?
  /// A shared ride's stops in order (filled by reads that show it).
  public var route: [RouteStop] = []
  /// Which round of asking the taxis in reach this search is in: every taxi may be asked once a
  /// round; the reach widens by a ring of zones each round.
  public var searchRound = 1
  /// When a search that found every taxi in reach refusing asks again (`nil`: asking now).
  public var nextRoundAt: Date?
  /// Why an ended ride ended, beside its state.
  public var endReason: EndReason = .none
  /// A party larger than one taxi: its rides share this id, each its own slot (0 for the first).
  public var partyID: String?
  public var partyIndex = 0
  /// A reservation's ride: when the (first) passenger is to be met.
  public var meetingAt: Date?
  /// Where its taxi was last heard from, for the passenger's map (filled by reads that show it).
  public var taxiPosition: GeoPoint?
  public var taxiPositionAt: Date?
  /// What reads show beside the stored state (``DispatchDomain/shown(_:)``): until when a search
  /// keeps looking, when the taxi should reach the pickup from its last position, from when the
  /// driver may mark the passenger absent.
  public var searchingUntil: Date?
  public var taxiEta: Date?
  public var noShowFrom: Date?

  /// Why a ride ended.
  public enum EndReason: String, Sendable, Hashable {
    case none = ""
    /// The passenger cancelled it.
    case passenger
    /// The passenger was not at the pickup when the driver had waited long enough.
    case noShow = "no_show"
    /// Every taxi in reach refused it until the search limit.
    case noTaxi = "no_taxi"
    /// The passenger's account was closed or suspended.
    case accountClosed = "account_closed"
    /// Its taxi went out of service on the way (the distance so far is paid).
    case taxiOutOfService = "taxi_out_of_service"
  }

  public init(
    id: String,
    passengerUserID: String,
    passengerName: String,
    idempotencyKey: String,
    state: RideState,
    pickup: RidePlace,
    destination: RidePlace?,
    passengers: Int,
    requestedAt: Date,
    passengerCode: String,
    currency: String,
    cardToken: String,
    cardLast4: String,
    holdID: String
  ) {
    self.id = id
    self.passengerUserID = passengerUserID
    self.passengerName = passengerName
    self.idempotencyKey = idempotencyKey
    self.state = state
    self.pickup = pickup
    self.destination = destination
    self.passengers = passengers
    self.requestedAt = requestedAt
    self.passengerCode = passengerCode
    self.currency = currency
    self.cardToken = cardToken
    self.cardLast4 = cardLast4
    self.holdID = holdID
  }
}

/// A job offered to one taxi, until accepted, rejected, expired or withdrawn.
public struct Offer: Sendable, Hashable {
  public enum State: String, Sendable, Hashable {
    case pending, accepted, rejected, expired
    /// The passenger cancelled, or the taxi became unavailable or was deleted.
    case withdrawn
  }

  public var id: String
  var rideSeq: Int64
  public var taxiCode: String
  public var state: State
  /// The taxi's place in its queue when offered: given back if the passenger cancels.
  var queueSeq: Int64?
  /// From the taxi to the pickup, when offered.
  public var distanceMetres: Double
  public var offeredAt: Date
  public var expiresAt: Date
  /// The search round it belongs to (a taxi is asked once a round).
  var round = 1
}

/// An offer with the ride it is for, as a driver sees it.
public struct OfferedJob: Sendable, Hashable {
  public var offer: Offer
  public var ride: Ride
}
