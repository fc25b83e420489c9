import BinarioDomain
import Foundation

/// The open-data portal's endpoints telemetry fetches: those configured in the service's settings
/// (`--reference-sources`, read-only here), and those an admin manages through the API (MOQA lets
/// its user manage the links to the portal), kept in the database.
public struct ReferenceSources: Sendable {
  let store: TelemetryStore
  let clock: any DomainClock
  /// From the service's settings.
  public let configured: [ReferenceSource]

  public init(store: TelemetryStore, clock: any DomainClock, configured: [ReferenceSource]) {
    self.store = store
    self.clock = clock
    self.configured = configured
  }

  /// Every source: the configured ones first, then the saved ones, each by name.
  public func all() async throws -> [(source: ReferenceSource, configured: Bool)] {
    let configuredNames = Set(configured.map(\.name))
    return configured.map { ($0, true) } + (try await store.savedSources()).filter { !configuredNames.contains($0.name) }.map { ($0, false) }
  }

  /// Saves a source an admin manages: a name (letters, digits, `-`, `_`; not a configured
  /// source's) and an absolute http(s) URL.
  public func save(_ source: ReferenceSource) async throws {
    var check = InputValidation()
    if source.name.isEmpty || source.name.count > 60
      || !source.name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" })
    {
      check.fail("name", "1 to 60 letters, digits, - or _")
    }
    if let url = URL(string: source.url), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false {
    } else {
      check.fail("url", "an absolute http(s) URL, such as https://www.dati.lombardia.it/resource/ykhg-b8rs.json?$limit=50000")
    }
    if let other = source.fillGapsFrom {
      if source.kind != .nearRealTime {
        check.fail("fill_gaps_from", "only the near-real-time feed fills its gaps from another source")
      } else if other == source.name {
        check.fail("fill_gaps_from", "names another source (the current year's dataset), not this one")
      }
    }
    try check.finish()
    guard !configured.contains(where: { $0.name == source.name }) else {
      throw ServiceError.failedPrecondition("\(source.name) is set in the service's settings (--reference-sources); change it there")
    }
    try await store.save(source, at: clock.now())
  }

  /// Deletes a source an admin saved (what it imported stays).
  public func delete(name: String) async throws {
    guard !configured.contains(where: { $0.name == name }) else {
      throw ServiceError.failedPrecondition("\(name) is set in the service's settings (--reference-sources); remove it there")
    }
    guard try await store.deleteSource(name: name) else { throw ServiceError.notFound("no reference source \(name)") }
  }

  /// How the fetches of the source `name` went (a source never fetched has an empty state).
  public func fetchState(of name: String) async throws -> FetchState {
    try await store.fetchState(source: name)
  }
}
