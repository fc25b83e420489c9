import ArgumentParser
import BinarioServiceKit
import Foundation
import TelemetryService

/// Telemetry's own settings, beside ServiceKit's common ones, each declared once: a flag, a
/// `BINARIO_*` variable or a key of the config file (flags win, then variables, then the file).
extension Setting {
  static let referenceSources = Setting(
    "referenceSources",
    help:
      "The open-data portal endpoints to fetch reference data from (JSON: [{\"name\", \"url\", \"kind\": \"catalogue\"|\"measurements\"|\"near_real_time\", \"network\": \"air_quality\"|\"weather\", \"fill_gaps_from\"}]); none by default.",
    valueName: "file"
  )

  static let referenceFetchEvery = Setting(
    "referenceFetchEvery",
    help: "How often (minutes) the reference sources are fetched; default 60.",
    valueName: "minutes"
  )
}

/// The flags of the settings above; ``given`` pairs each with its value.
struct TelemetryOptions: ParsableArguments {
  @Option(name: .customLong(Setting.referenceSources.flagName), help: Setting.referenceSources.argumentHelp)
  var referenceSources: String?

  @Option(name: .customLong(Setting.referenceFetchEvery.flagName), help: Setting.referenceFetchEvery.argumentHelp)
  var fetchEvery: String?

  /// Each setting with what its flag was given.
  var given: [AdditionalSetting] {
    [
      Setting.referenceSources.given(referenceSources),
      Setting.referenceFetchEvery.given(fetchEvery),
    ]
  }

  static func referenceSources(_ values: AdditionalSettingValues) throws -> [ReferenceSource] {
    try values.file(.referenceSources) { data in
      let sources = try JSONDecoder().decode([ReferenceSource].self, from: data)
      if let unnamed = sources.first(where: { $0.name.isEmpty || URL(string: $0.url)?.scheme == nil }) {
        throw Refusal("every source needs a name and an absolute URL (\(unnamed.name.isEmpty ? unnamed.url : unnamed.name))")
      }
      for source in sources {
        guard let other = source.fillGapsFrom else { continue }
        guard source.kind == .nearRealTime, other != source.name, sources.contains(where: { $0.name == other }) else {
          throw Refusal("\(source.name): fill_gaps_from is for a near_real_time source and names another source in the file (\(other))")
        }
      }
      return sources
    } ?? []
  }

  static func fetchPeriod(_ values: AdditionalSettingValues) throws -> Duration {
    .seconds((try values.number(.referenceFetchEvery, in: 1 ... (7 * 24 * 60)) ?? 60) * 60)
  }
}
