import BinarioProto
import Foundation
import SwiftProtobuf

/// How rides, taxis, offers and the control room print.
extension Print {
  static func rideState(_ state: Binario_Dispatch_V1_RideState) -> String {
    switch state {
    case .searching: return "searching"
    case .allocated: return "allocated"
    case .arrived: return "taxi arrived"
    case .inProgress: return "in progress"
    case .completed: return "completed"
    case .cancelled: return "cancelled"
    case .noTaxi: return "no taxi found"
    default: return "unknown"
    }
  }

  static func place(_ place: Binario_Dispatch_V1_Place) -> String {
    let position = String(format: "%.5f, %.5f", place.position.latitude, place.position.longitude)
    return (place.address.isEmpty ? position : "\(place.address) (\(position))") + (place.zoneID.isEmpty ? "" : " [zone \(place.zoneID)]")
  }

  /// A ride in a few lines.
  static func ride(_ ride: Binario_Dispatch_V1_Ride) {
    print(rideText(ride), terminator: "")
  }

  static func rideText(_ ride: Binario_Dispatch_V1_Ride) -> String {
    var lines: [String] = []
    func print(_ line: String) { lines.append(line) }
    var head = "\(ride.rideID): \(rideState(ride.state))"
    if ride.delayed && ride.state == .allocated { head += " (late)" }
    print(head)
    print("  from \(place(ride.pickup))" + (ride.hasDestination ? " to \(place(ride.destination))" : "") + ", \(ride.passengers) passenger(s)")
    print("  requested \(date(ride.requestedAt))")
    if !ride.taxiCode.isEmpty {
      var taxi = "  taxi \(ride.taxiCode) (\(ride.taxiPlate))"
      if ride.hasEstimatedPickupAt && (ride.state == .allocated) { taxi += ", expected at \(date(ride.estimatedPickupAt))" }
      print(taxi)
    }
    if !ride.passengerCode.isEmpty && [.allocated, .arrived].contains(ride.state) {
      print("  your code for the driver: \(ride.passengerCode)")
    }
    if !ride.passengerName.isEmpty && ride.passengerCode.isEmpty { print("  passenger: \(ride.passengerName)") }
    if ride.hasEstimatedFare && ride.state != .completed { print("  estimated fare \(money(ride.estimatedFare))") }
    if ride.hasFare {
      print(
        "  \(distance(ride.distanceMetres)) driven, fare \(money(ride.fare))"
          + (ride.cardLast4.isEmpty ? "" : " on the card ending \(ride.cardLast4)")
      )
    }
    for (index, stop) in ride.route.enumerated() {
      print("  \(index + 1). \(stop.kind == .pickup ? "pick up" : "drop off") \(stop.passengerName) (\(stop.passengers)) at \(place(stop.place))")
    }
    if ride.hasCancellationFee {
      print(ride.cancellationFee.amountMinor == 0 ? "  cancelled free of charge" : "  cancellation fee \(money(ride.cancellationFee))")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static func reservation(_ reservation: Binario_Dispatch_V1_Reservation) {
    let state: String
    switch reservation.state {
    case .scheduled: state = "booked"
    case .dispatched: state = "taxi being allocated (ride \(reservation.rideID))"
    case .cancelled: state = "deleted"
    default: state = "unknown"
    }
    print("\(reservation.reservationID): \(state), meeting at \(date(reservation.meetingAt))")
    print("  from \(place(reservation.pickup)) to \(place(reservation.destination)), \(reservation.passengers) passenger(s)")
    if reservation.shared {
      print("  shared with \(reservation.sharingWith) other passenger(s) so far; your share \(money(reservation.fare))")
    } else {
      print("  estimated fare \(money(reservation.fare))")
    }
    if reservation.state == .scheduled { print("  can be changed until \(date(reservation.editableUntil))") }
    if reservation.hasCancellationFee {
      print(reservation.cancellationFee.amountMinor == 0 ? "  deleted free of charge" : "  deletion fee \(money(reservation.cancellationFee))")
    }
  }

  static func taxiState(_ state: Binario_Dispatch_V1_TaxiState) -> String {
    switch state {
    case .unavailable: return "unavailable"
    case .waiting: return "waiting"
    case .offered: return "offered a job"
    case .busy: return "busy"
    default: return "unknown"
    }
  }

  static func taxi(_ taxi: Binario_Dispatch_V1_Taxi) {
    var line = "\(taxi.code) \(taxi.plate), \(taxi.capacity) seats: \(taxiState(taxi.state))"
    if !taxi.unavailableReason.isEmpty { line += " (\(taxi.unavailableReason))" }
    if !taxi.zoneID.isEmpty { line += ", zone \(taxi.zoneID)" }
    if taxi.queuePosition > 0 { line += ", #\(taxi.queuePosition) in the queue" }
    if !taxi.driverUserID.isEmpty { line += ", driver \(taxi.driverName.isEmpty ? taxi.driverUserID : "\(taxi.driverName) [\(taxi.driverUserID)]")" }
    print(line)
  }

  static func offer(_ offer: Binario_Dispatch_V1_Offer) {
    let ride = offer.ride
    print(
      "OFFER \(offer.offerID): pick up at \(place(ride.pickup)), \(distance(offer.distanceMetres)) away, \(ride.passengers) passenger(s)"
        + (ride.hasDestination ? " to \(place(ride.destination))" : "") + "; answer by \(date(offer.expiresAt))"
    )
  }

  static func monitor(_ snapshot: Binario_Dispatch_V1_MonitorSnapshot) {
    print(monitorText(snapshot), terminator: "")
  }

  static func monitorText(_ snapshot: Binario_Dispatch_V1_MonitorSnapshot) -> String {
    var lines = ["Control room at \(date(snapshot.takenAt)):"]
    for zone in snapshot.zones {
      lines.append(
        "  \(zone.zoneID) \(zone.name): queue [\(zone.queue.map(\.code).joined(separator: ", "))]"
          + ", \(zone.waiting.count) waiting, \(zone.inProgress.count) under way"
      )
      for ride in zone.waiting { lines.append("    waiting: \(ride.rideID) at \(place(ride.pickup))") }
      for ride in zone.inProgress { lines.append("    \(rideState(ride.state)): \(ride.rideID) with taxi \(ride.taxiCode)") }
    }
    for taxi in snapshot.otherTaxis {
      lines.append(
        "  off the queues: \(taxi.code) \(taxiState(taxi.state))" + (taxi.unavailableReason.isEmpty ? "" : " (\(taxi.unavailableReason))")
      )
    }
    for alert in snapshot.alerts { lines.append("  ALERT " + alertText(alert)) }
    return lines.joined(separator: "\n") + "\n"
  }

  /// One alert on a line: when, its id, what it says, what it names.
  static func alertText(_ alert: Binario_Dispatch_V1_TaxiAlert) -> String {
    let names = [alert.taxiCode.isEmpty ? nil : "taxi \(alert.taxiCode)", alert.rideID.isEmpty ? nil : "ride \(alert.rideID)"]
      .compactMap { $0 }.joined(separator: ", ")
    var text = "\(date(alert.raisedAt)) \(alert.alertID): \(alert.title) - \(alert.body)" + (names.isEmpty ? "" : " (\(names))")
    if alert.hasAcknowledgedAt { text += "; seen to \(date(alert.acknowledgedAt))" }
    return text
  }

}
