import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import SwiftProtobuf

// Domain values as proto messages, and back. Instants are Timestamps; money is minor units.

extension Binario_Dispatch_V1_Position {
  init(_ point: GeoPoint) {
    self.init()
    self.latitude = point.latitude
    self.longitude = point.longitude
  }

  var point: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }
}

extension Binario_Dispatch_V1_Zone {
  init(_ zone: Zone, neighbours: [String]) {
    self.init()
    self.zoneID = zone.id
    self.name = zone.name
    self.border = zone.polygon.map(Binario_Dispatch_V1_Position.init)
    self.neighbourZoneIds = neighbours
  }
}

extension Binario_Dispatch_V1_Tariff {
  init(_ tariff: Tariff) {
    self.init()
    self.baseFare = .init(minor: tariff.baseFareMinor, currency: tariff.currency)
    self.perKilometre = .init(minor: tariff.perKilometreMinor, currency: tariff.currency)
    self.detourFactor = tariff.detourFactor
    self.cancellationFee = .init(minor: tariff.cancellationFeeMinor, currency: tariff.currency)
    self.freeCancellationSeconds = UInt32(tariff.freeCancellationSeconds)
  }
}

extension Binario_Dispatch_V1_Location {
  var domain: RideLocation? {
    switch self.where {
    case .position(let position): return .position(position.point)
    case .address(let address): return .address(address)
    case nil: return nil
    }
  }
}

extension Binario_Dispatch_V1_Place {
  init(_ place: RidePlace) {
    self.init()
    self.position = .init(place.position)
    self.address = place.address
    self.zoneID = place.zoneID
  }
}

extension Binario_Dispatch_V1_RideState {
  init(_ state: RideState) {
    switch state {
    case .searching: self = .searching
    case .allocated: self = .allocated
    case .arrived: self = .arrived
    case .inProgress: self = .inProgress
    case .completed: self = .completed
    case .cancelled: self = .cancelled
    case .noTaxi: self = .noTaxi
    }
  }
}

extension Binario_Dispatch_V1_Ride {
  init(_ ride: Ride) {
    self.init()
    self.rideID = ride.id
    self.state = .init(ride.state)
    self.pickup = .init(ride.pickup)
    if let destination = ride.destination { self.destination = .init(destination) }
    self.passengers = UInt32(ride.passengers)
    self.requestedAt = .init(date: ride.requestedAt)
    self.taxiCode = ride.taxiCode ?? ""
    self.taxiPlate = ride.taxiPlate
    if let estimate = ride.estimatedPickupAt { self.estimatedPickupAt = .init(date: estimate) }
    self.passengerCode = ride.passengerCode
    self.delayed = ride.delayed
    if let arrived = ride.arrivedAt { self.arrivedAt = .init(date: arrived) }
    if let started = ride.startedAt { self.startedAt = .init(date: started) }
    if let ended = ride.endedAt { self.endedAt = .init(date: ended) }
    self.distanceMetres = ride.distanceMetres.rounded()
    if let fare = ride.fareMinor { self.fare = .init(minor: fare, currency: ride.currency) }
    if let fee = ride.cancellationFeeMinor { self.cancellationFee = .init(minor: fee, currency: ride.currency) }
    self.cardLast4 = ride.cardLast4
    if let estimate = ride.estimatedFareMinor { self.estimatedFare = .init(minor: estimate, currency: ride.currency) }
    self.passengerName = ride.passengerName
    self.route = ride.route.map(Binario_Dispatch_V1_Stop.init)
    self.reservationID = ride.reservationID
    self.searchRound = UInt32(ride.searchRound)
    if let next = ride.nextRoundAt { self.nextRoundAt = .init(date: next) }
    if let until = ride.searchingUntil { self.searchingUntil = .init(date: until) }
    if let position = ride.taxiPosition { self.taxiPosition = .init(position) }
    if let at = ride.taxiPositionAt { self.taxiPositionAt = .init(date: at) }
    if let eta = ride.taxiEta { self.taxiEta = .init(date: eta) }
    self.endReason = .init(ride.endReason)
    self.partyID = ride.partyID ?? ""
    if let from = ride.noShowFrom { self.noShowFrom = .init(date: from) }
    if let meeting = ride.meetingAt { self.meetingAt = .init(date: meeting) }
  }

  /// As the driver sees it: the passenger's code is theirs to tell, not the driver's to read.
  init(forDriver ride: Ride) {
    self.init(ride)
    self.passengerCode = ""
    self.cardLast4 = ""
  }
}

extension Binario_Dispatch_V1_RideEndReason {
  init(_ reason: Ride.EndReason) {
    switch reason {
    case .none: self = .unspecified
    case .passenger: self = .passenger
    case .noShow: self = .noShow
    case .noTaxi: self = .noTaxi
    case .accountClosed: self = .accountClosed
    case .taxiOutOfService: self = .taxiOutOfService
    }
  }
}

extension Binario_Dispatch_V1_TaxiState {
  init(_ state: Taxi.State) {
    switch state {
    case .unavailable: self = .unavailable
    case .waiting: self = .waiting
    case .offered: self = .offered
    case .busy: self = .busy
    }
  }
}

extension Binario_Dispatch_V1_Taxi {
  init(_ taxi: Taxi, driverName: String = "") {
    self.init()
    self.code = taxi.code
    self.plate = taxi.plate
    self.capacity = UInt32(taxi.capacity)
    self.driverUserID = taxi.driverUserID ?? ""
    self.driverName = driverName
    self.state = .init(taxi.state)
    self.unavailableReason = taxi.available ? (taxi.zoneID == nil && !taxi.onRide ? "outside every zone" : "") : taxi.unavailableReason
    if let position = taxi.position { self.position = .init(position) }
    if let at = taxi.positionAt { self.positionReportedAt = .init(date: at) }
    self.zoneID = taxi.zoneID ?? ""
    self.queuePosition = UInt32(taxi.queuePosition)
  }
}

extension Binario_Dispatch_V1_Offer {
  init(_ job: OfferedJob) {
    self.init()
    self.offerID = job.offer.id
    self.ride = .init(forDriver: job.ride)
    self.expiresAt = .init(date: job.offer.expiresAt)
    self.distanceMetres = job.offer.distanceMetres.rounded()
  }
}

extension Binario_Dispatch_V1_SavedPlace {
  init(_ place: SavedPlace) {
    self.init()
    self.name = place.name
    self.position = .init(place.position)
  }
}

extension Binario_Dispatch_V1_MonitorSnapshot {
  init(_ snapshot: MonitorSnapshot) {
    self.init()
    self.zones = snapshot.zones.map { zone in
      .with {
        $0.zoneID = zone.zone.id
        $0.name = zone.zone.name
        $0.queue = zone.queue.map { Binario_Dispatch_V1_Taxi($0) }
        $0.waiting = zone.waiting.map { Binario_Dispatch_V1_Ride(forDriver: $0) }
        $0.inProgress = zone.inProgress.map { Binario_Dispatch_V1_Ride(forDriver: $0) }
      }
    }
    self.otherTaxis = snapshot.otherTaxis.map { Binario_Dispatch_V1_Taxi($0) }
    self.takenAt = .init(date: snapshot.takenAt)
    self.alerts = snapshot.alerts.map { Binario_Dispatch_V1_TaxiAlert($0) }
  }
}

extension Binario_Dispatch_V1_TaxiAlert {
  /// In the caller's language.
  init(_ alert: TaxiAlert) {
    self.init()
    self.alertID = alert.id
    self.kind = alert.kind
    self.title = alert.title.text(in: RequestLanguage.current)
    self.body = alert.body.text(in: RequestLanguage.current)
    self.taxiCode = alert.taxiCode
    self.rideID = alert.rideID
    self.zoneID = alert.zoneID
    self.raisedAt = .init(date: alert.raisedAt)
    if let at = alert.acknowledgedAt { self.acknowledgedAt = .init(date: at) }
    self.acknowledgedBy = alert.acknowledgedBy
  }
}

extension Binario_Dispatch_V1_Stop {
  init(_ stop: RouteStop) {
    self.init()
    self.kind = stop.kind == .pickup ? .pickup : .dropOff
    self.place = .init(stop.place)
    self.passengerName = stop.passengerName
    self.passengers = UInt32(stop.passengers)
    self.reservationID = stop.reservationID
    self.done = stop.done
  }
}

extension Binario_Dispatch_V1_Reservation {
  init(_ reservation: Reservation, sharingWith: Int, editableUntil: Date) {
    self.init()
    self.reservationID = reservation.id
    switch reservation.state {
    case .scheduled: self.state = .scheduled
    case .dispatched: self.state = .dispatched
    case .cancelled: self.state = .cancelled
    }
    self.pickup = .init(reservation.pickup)
    self.destination = .init(reservation.destination)
    self.passengers = UInt32(reservation.passengers)
    self.meetingAt = .init(date: reservation.meetingAt)
    self.shared = reservation.shared
    self.sharingWith = UInt32(sharingWith)
    self.fare = .init(minor: reservation.fareMinor, currency: reservation.currency)
    self.rideID = reservation.rideID ?? ""
    self.editableUntil = .init(date: editableUntil)
    if let fee = reservation.cancellationFeeMinor { self.cancellationFee = .init(minor: fee, currency: reservation.currency) }
    self.passengerCode = reservation.passengerCode
    self.soloFare = .init(minor: reservation.soloFareMinor ?? reservation.fareMinor, currency: reservation.currency)
    self.endReason = .init(reservation.endReason)
  }
}
