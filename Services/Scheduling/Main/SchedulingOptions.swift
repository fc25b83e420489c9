import ArgumentParser
import BinarioServiceKit
import Foundation
import SchedulingService

/// Scheduling's own settings, beside ServiceKit's common ones and the identity address, each
/// declared once: a flag, a `BINARIO_*` variable or a key of the config file (flags win, then
/// variables, then the file).
extension Setting {
  static let timetableFolder = Setting(
    "timetableFolder",
    help: "A GTFS feed folder loaded at first start, when no timetable was ever imported (the repository's Services/Scheduling/DemoNetwork).",
    valueName: "folder"
  )

  static let timetableZone = Setting(
    "timetableZone",
    help: "The time zone the timetable's service days are in; default Europe/Rome.",
    valueName: "zone"
  )
}

/// The flags of the settings above; ``given`` pairs each with its value.
struct SchedulingOptions: ParsableArguments {
  @Option(name: .customLong(Setting.timetableFolder.flagName), help: Setting.timetableFolder.argumentHelp)
  var timetableFolder: String?

  @Option(name: .customLong(Setting.timetableZone.flagName), help: Setting.timetableZone.argumentHelp)
  var timetableZone: String?

  /// Each setting with what its flag was given.
  var given: [AdditionalSetting] {
    [
      Setting.timetableFolder.given(timetableFolder),
      Setting.timetableZone.given(timetableZone),
    ]
  }

  static func folder(_ values: AdditionalSettingValues) throws -> String? {
    try values.folder(.timetableFolder)
  }

  static func zone(_ values: AdditionalSettingValues) throws -> ServiceDayZone {
    try values.value(.timetableZone) { name in
      guard let zone = ServiceDayZone(identifier: name) else { throw Refusal("expected a time zone such as Europe/Rome, got \(name)") }
      return zone
    } ?? ServiceDayZone(identifier: "Europe/Rome")!
  }
}
