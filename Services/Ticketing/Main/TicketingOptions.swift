import ArgumentParser
import BinarioServiceKit
import Foundation

/// Ticketing's own settings, beside ServiceKit's common ones and the peers' addresses. Each is a
/// flag, or else a `BINARIO_*` environment variable (flags win).
struct TicketingOptions: ParsableArguments {
  @Option(
    name: .customLong("fare-table"),
    help: ArgumentHelp(
      "A fare table (JSON) loaded at start when it differs from the one in force (the repository's Services/Ticketing/DemoFares/fares.json). (BINARIO_FARE_TABLE)",
      valueName: "file"
    )
  )
  var fareTable: String?

  @Option(
    name: .customLong("ticketing-zone"),
    help: ArgumentHelp(
      "The time zone of service dates, pass days and renewal dates; default Europe/Rome. (BINARIO_TICKETING_ZONE)",
      valueName: "zone"
    )
  )
  var ticketingZone: String?

  @Option(
    name: .customLong("renewal-reminder-days"),
    help: ArgumentHelp(
      "How many days before a subscription renews its reminder goes out; default 3. (BINARIO_RENEWAL_REMINDER_DAYS)",
      valueName: "days"
    )
  )
  var renewalReminderDays: Int?

  func fareTableData(_ reader: OwnSettingReader) throws -> Data? {
    try reader.file(fareTable, "BINARIO_FARE_TABLE", name: "fare-table")?.data
  }

  func zone(_ reader: OwnSettingReader) throws -> TimeZone {
    try reader.timeZone(ticketingZone, "BINARIO_TICKETING_ZONE", name: "ticketing-zone")
  }

  func reminderDays(_ reader: OwnSettingReader) throws -> Int {
    try reader.integer(renewalReminderDays, "BINARIO_RENEWAL_REMINDER_DAYS", name: "renewal-reminder-days", in: 0 ... 60) ?? 3
  }
}
