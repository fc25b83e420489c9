import ArgumentParser
import Foundation
import SchedulingService

/// Scheduling's own settings, beside ServiceKit's common ones and `--identity-address`. Each is
/// a flag, or else a `BINARIO_*` environment variable (flags win).
struct SchedulingOptions: ParsableArguments {
  @Option(
    name: .customLong("timetable-folder"),
    help: ArgumentHelp(
      "A GTFS feed folder loaded at first start, when no timetable was ever imported (the repository's Services/Scheduling/DemoNetwork). (BINARIO_TIMETABLE_FOLDER)",
      valueName: "folder"
    )
  )
  var timetableFolder: String?

  @Option(
    name: .customLong("timetable-zone"),
    help: ArgumentHelp(
      "The time zone the timetable's service days are in; default Europe/Rome. (BINARIO_TIMETABLE_ZONE)",
      valueName: "zone"
    )
  )
  var timetableZone: String?

  func folder(environment: [String: String]) throws -> String? {
    guard let folder = timetableFolder ?? environment["BINARIO_TIMETABLE_FOLDER"], !folder.isEmpty else { return nil }
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
      throw ValidationError("timetable-folder \(folder) is not a folder")
    }
    return folder
  }

  func zone(environment: [String: String]) throws -> ServiceDayZone {
    let name = timetableZone ?? environment["BINARIO_TIMETABLE_ZONE"] ?? "Europe/Rome"
    guard let zone = ServiceDayZone(identifier: name) else {
      throw ValidationError("timetable-zone must be a time zone such as Europe/Rome, not \(name)")
    }
    return zone
  }
}
