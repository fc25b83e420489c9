import ArgumentParser
import BinarioServiceKit
import Foundation
import TelemetryService

/// Telemetry's own settings, beside ServiceKit's common ones. Each is a flag, or else a
/// `BINARIO_*` environment variable (flags win).
struct TelemetryOptions: ParsableArguments {
  @Option(
    name: .customLong("reference-sources"),
    help: ArgumentHelp(
      "The open-data portal endpoints to fetch reference data from (JSON: [{\"name\", \"url\", \"kind\": \"catalogue\"|\"measurements\", \"network\": \"air_quality\"|\"weather\"}]); none by default. (BINARIO_REFERENCE_SOURCES)",
      valueName: "file"
    )
  )
  var referenceSources: String?

  @Option(
    name: .customLong("reference-fetch-every"),
    help: ArgumentHelp("How often (minutes) the reference sources are fetched; default 60. (BINARIO_REFERENCE_FETCH_EVERY)", valueName: "minutes")
  )
  var fetchEvery: Double?

  func referenceSources(_ reader: OwnSettingReader) throws -> [ReferenceSource] {
    guard let (path, data) = try reader.file(referenceSources, "BINARIO_REFERENCE_SOURCES", name: "reference-sources") else { return [] }
    do {
      let sources = try JSONDecoder().decode([ReferenceSource].self, from: data)
      if let unnamed = sources.first(where: { $0.name.isEmpty || URL(string: $0.url)?.scheme == nil }) {
        throw ValidationError("\(path): every source needs a name and an absolute URL (\(unnamed.name.isEmpty ? unnamed.url : unnamed.name))")
      }
      return sources
    } catch let error as ValidationError {
      throw error
    } catch {
      throw ValidationError("\(path) is not a list of reference sources: \(error)")
    }
  }

  func fetchPeriod(_ reader: OwnSettingReader) throws -> Duration {
    let minutes = try reader.number(fetchEvery, "BINARIO_REFERENCE_FETCH_EVERY", name: "reference-fetch-every", in: 1 ... (7 * 24 * 60)) ?? 60
    return .seconds(minutes * 60)
  }
}
