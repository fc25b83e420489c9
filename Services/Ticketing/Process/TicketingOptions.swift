import ArgumentParser
import BinarioServiceKit
import Foundation

/// Ticketing's own settings, beside ServiceKit's common ones and the peers' addresses, each
/// declared once: a flag, a `BINARIO_*` variable or a key of the config file (flags win, then
/// variables, then the file).
extension Setting {
  static let fareTable = Setting(
    "fareTable",
    help: "A fare table (JSON) loaded at start when it differs from the one in force (the repository's Services/Ticketing/DemoFares/fares.json).",
    valueName: "file"
  )

  static let ticketingZone = Setting(
    "ticketingZone",
    help: "The time zone of service dates, pass days and renewal dates; default Europe/Rome.",
    valueName: "zone"
  )

  static let renewalReminderDays = Setting(
    "renewalReminderDays",
    help: "How many days before each renewal the reminder goes out, for people who chose none; default 3.",
    valueName: "days"
  )
}

/// The flags of the settings above; ``given`` pairs each with its value.
struct TicketingOptions: ParsableArguments {
  @Option(name: .customLong(Setting.fareTable.flagName), help: Setting.fareTable.argumentHelp)
  var fareTable: String?

  @Option(name: .customLong(Setting.ticketingZone.flagName), help: Setting.ticketingZone.argumentHelp)
  var ticketingZone: String?

  @Option(name: .customLong(Setting.renewalReminderDays.flagName), help: Setting.renewalReminderDays.argumentHelp)
  var renewalReminderDays: String?

  /// Each setting with what its flag was given.
  var given: [AdditionalSetting] {
    [
      Setting.fareTable.given(fareTable),
      Setting.ticketingZone.given(ticketingZone),
      Setting.renewalReminderDays.given(renewalReminderDays),
    ]
  }

  static func fareTable(_ values: AdditionalSettingValues) throws -> (path: String, data: Data)? {
    try values.file(.fareTable)
  }

  static func zone(_ values: AdditionalSettingValues) throws -> TimeZone {
    try values.timeZone(.ticketingZone)
  }

  static func reminderDays(_ values: AdditionalSettingValues) throws -> Int {
    try values.integer(.renewalReminderDays, in: 0 ... 60) ?? 3
  }
}
