import ArgumentParser
import Foundation

/// Ticketing's own settings, beside ServiceKit's common ones and the peers' addresses. Each is a
/// flag, or else a `BINARIO_*` environment variable (flags win).
struct TicketingOptions: ParsableArguments {
  @Option(
    name: .customLong("fare-table"),
    help: ArgumentHelp(
      "A fare table (JSON) loaded at start when it differs from the one in force (the repository's Services/Ticketing/DemoFares/fares.json). (BINARIO_FARE_TABLE)",
      valueName: "file"))
  var fareTable: String?

  @Option(
    name: .customLong("ticketing-zone"),
    help: ArgumentHelp(
      "The time zone of service dates, pass days and renewal dates; default Europe/Rome. (BINARIO_TICKETING_ZONE)",
      valueName: "zone"))
  var ticketingZone: String?

  @Option(
    name: .customLong("renewal-reminder-days"),
    help: ArgumentHelp("How many days before a subscription renews its reminder goes out; default 3. (BINARIO_RENEWAL_REMINDER_DAYS)", valueName: "days"))
  var renewalReminderDays: Int?

  func fareTableData(environment: [String: String]) throws -> Data? {
    guard let path = fareTable ?? environment["BINARIO_FARE_TABLE"], !path.isEmpty else { return nil }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ValidationError("fare-table \(path) cannot be read")
    }
    return data
  }

  func zone(environment: [String: String]) throws -> TimeZone {
    let name = ticketingZone ?? environment["BINARIO_TICKETING_ZONE"] ?? "Europe/Rome"
    guard let zone = TimeZone(identifier: name) else {
      throw ValidationError("ticketing-zone must be a time zone such as Europe/Rome, not \(name)")
    }
    return zone
  }

  func reminderDays(environment: [String: String]) throws -> Int {
    guard let days = renewalReminderDays ?? environment["BINARIO_RENEWAL_REMINDER_DAYS"].map({ Int($0) ?? -1 }) else {
      return 3
    }
    guard (0...60).contains(days) else { throw ValidationError("renewal-reminder-days must be 0 to 60") }
    return days
  }
}
