import BinarioDomain
import BinarioProto
import Foundation
import SwiftProtobuf

/// How the timetable, notifications and itineraries print. Times are shown in the timetable's
/// zone (Europe/Rome; `BINARIO_TIMEZONE` to change it).
extension Print {
  static let timetableZone =
    TimeZone(identifier: ProcessInfo.processInfo.environment["BINARIO_TIMEZONE"] ?? "Europe/Rome") ?? .current

  /// `08:42`.
  static func clock(_ timestamp: Google_Protobuf_Timestamp) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timetableZone
    let parts = calendar.dateComponents([.hour, .minute], from: timestamp.date)
    return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
  }

  /// `08:42` or `08:42 (+12 → 08:54)`.
  static func departure(_ stop: Binario_Scheduling_V1_RunStop) -> String {
    if stop.cancelled { return "\(clock(stop.scheduledDeparture)) cancelled" }
    guard stop.delayMinutes != 0 else { return clock(stop.scheduledDeparture) }
    return "\(clock(stop.scheduledDeparture)) (+\(stop.delayMinutes) → \(clock(stop.expectedDeparture)))"
  }

  static func platform(_ stop: Binario_Scheduling_V1_RunStop) -> String {
    if stop.platform.isEmpty { return "" }
    return stop.platformChanged ? "platform \(stop.platform) (was \(stop.scheduledPlatform))" : "platform \(stop.platform)"
  }

  /// `R4 2301 to Bergamo  [trip R4_2301 2026-11-25]`.
  static func train(_ run: Binario_Scheduling_V1_Run) -> String {
    "\(run.line) \(run.trainNumber) to \(run.headsign)\(run.cancelled ? "  CANCELLED" : "")  [\(run.run.tripID) \(run.run.serviceDate)]"
  }

  static func run(_ run: Binario_Scheduling_V1_Run) {
    print(train(run))
    for stop in run.stops {
      let arrival = stop.delayMinutes == 0 ? clock(stop.scheduledArrival) : clock(stop.expectedArrival)
      let line = "  \(stop.sequence). \(arrival)  \(departure(stop))  \(stop.station.name)  \(platform(stop))"
      print(stop.cancelled ? line + "  (not calling)" : line)
    }
  }

  static func notification(_ notification: Binario_Scheduling_V1_Notification) {
    print(notificationText(notification), terminator: "")
  }

  /// A notification's lines, each ending in a newline.
  static func notificationText(_ notification: Binario_Scheduling_V1_Notification) -> String {
    let kind = String(describing: notification.kind)
    let data = notification.data.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    var text = "\(notification.read ? " " : "*") \(date(notification.createdAt))  [\(kind)] \(notification.title)\n"
    if !notification.body.isEmpty { text += "    \(notification.body)\n" }
    text += "    \(data.isEmpty ? "" : data + "  ")(id \(notification.notificationID), cursor \(notification.cursor))\n"
    return text
  }

  static func money(_ money: Binario_Type_V1_Money) -> String {
    amount(money.amountMinor, money.currency)
  }

  /// `12.50 EUR`, `1200 JPY`: the currency's minor-unit digits.
  static func amount(_ units: Int64, _ currency: String) -> String {
    let digits = Money.minorUnitDigits(currency)
    guard digits > 0 else { return "\(units) \(currency)" }
    let scale = Int64(pow(10, Double(digits)))
    let fraction = String(abs(units % scale)).leftPadded(to: digits)
    return "\(units < 0 ? "-" : "")\(abs(units) / scale).\(fraction) \(currency)"
  }

  static func itinerary(_ itinerary: Binario_Scheduling_V1_Itinerary) {
    print("\(itinerary.name) — \(itinerary.destination), \(itinerary.startDate) to \(itinerary.endDate)  [\(itinerary.itineraryID)]")
    print("  estimated cost \(money(itinerary.estimatedCost))")
    for member in itinerary.members {
      print("  \(member.organiser ? "organiser" : "member   ") \(member.displayName)  share \(money(member.costShare))")
    }
    for invite in itinerary.invites {
      let who =
        invite.inviteeUserID.isEmpty
        ? invite.inviteeEmail + " (not registered yet)"
        : "\(invite.inviteeName) \(invite.inviteeEmail)" + (invite.awaitsFriendship ? " (waits for your friend request)" : "")
      print("  invite \(invite.inviteID)  \(who)  \(String(describing: invite.status))")
    }
    for event in itinerary.events {
      print("  event \(event.eventID)  \(date(event.startsAt))  \(event.title)  \(event.place)  \(money(event.cost))")
      if event.hasTrain {
        let ride = event.train.ride
        let state =
          !event.train.hasRide
          ? "no longer in the timetable" : ride.cancelled ? "cancelled" : ride.delayMinutes > 0 ? "\(ride.delayMinutes) min late" : "on time"
        let ticket = event.train.ticketID.isEmpty ? "" : "  ticket \(event.train.ticketID)"
        print("    train \(ride.line) \(ride.trainNumber)  \(state)\(ride.platform.isEmpty ? "" : "  platform \(ride.platform)")\(ticket)")
      }
    }
  }

  static func expense(_ expense: Binario_Scheduling_V1_ItineraryExpense) {
    let kind = expense.settlement ? "settlement" : String(describing: expense.split)
    print(
      "expense \(expense.expenseID)  \(date(expense.spentAt))  \(expense.description_p)  \(money(expense.amount))  paid by \(expense.paidByName)  (\(kind))"
    )
    for share in expense.shares { print("  \(share.displayName)  \(money(share.amount))") }
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
