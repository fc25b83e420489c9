import BinarioDomain
import Foundation

/// The open-data portal's endpoints telemetry fetches: those configured in the service's settings
/// (`--reference-sources`, read-only here), those an admin manages through the API (everyone's
/// default), and each person's own links (MOQA lets each user manage theirs), kept in the
/// database. A person's link is fetched under the name `person:<user>:<name>`, which no other
/// source can have (`:` is not allowed in a name).
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

  /// What the fetch job fetches: every source, and every person's links under their full names.
  public func allToFetch() async throws -> [ReferenceSource] {
    try await all().map(\.source)
      + (try await store.allPortalLinks()).map { userID, link in Self.qualified(link, of: userID) }
  }

  // MARK: - A person's own links

  /// The hosts a person's link may point at: the portal's own. The service fetches a link, so
  /// an address of the person's choosing would let them reach whatever the service can (another
  /// service, the cloud's metadata address): only the portal is reachable this way.
  public static let portalHosts: Set<String> = ["www.dati.lombardia.it", "dati.lombardia.it"]
  public static let linksPerPerson = 10

  /// The start of every source name of `userID`'s links.
  public static func linkPrefix(of userID: String) -> String { "person:\(userID):" }

  /// A person's link under its full name, its `fill_gaps_from` naming their own link.
  static func qualified(_ link: ReferenceSource, of userID: String) -> ReferenceSource {
    var source = link
    source.name = linkPrefix(of: userID) + link.name
    source.fillGapsFrom = link.fillGapsFrom.map { linkPrefix(of: userID) + $0 }
    return source
  }

  /// `userID`'s links with how their fetches went (under their full names).
  public func links(of userID: String) async throws -> [(link: ReferenceSource, state: FetchState)] {
    var links: [(link: ReferenceSource, state: FetchState)] = []
    for link in try await store.portalLinks(userID: userID) {
      links.append((link, try await store.fetchState(source: Self.qualified(link, of: userID).name)))
    }
    return links
  }

  /// Saves one of `userID`'s links: a name as a source's; https on the portal's own host, no
  /// credentials or other port; `fill_gaps_from` one of their own links; at most ten.
  public func saveLink(_ link: ReferenceSource, of userID: String) async throws {
    var check = InputValidation()
    Self.checkName(link.name, &check)
    if let url = URL(string: link.url), url.scheme?.lowercased() == "https", let host = url.host?.lowercased(), Self.portalHosts.contains(host),
      url.user == nil, url.password == nil, url.port == nil || url.port == 443
    {
    } else {
      check.fail("url", "a link to the open-data portal, https://www.dati.lombardia.it/…")
    }
    if let other = link.fillGapsFrom {
      let mine = try await store.portalLinks(userID: userID)
      if link.kind != .nearRealTime {
        check.fail("fill_gaps_from", "only the near-real-time feed fills its gaps from another source")
      } else if other == link.name || !mine.contains(where: { $0.name == other }) {
        check.fail("fill_gaps_from", "names another of your links")
      }
    }
    try check.finish()
    guard try await store.savePortalLink(link, userID: userID, limit: Self.linksPerPerson, at: clock.now()) else {
      throw ServiceError.failedPrecondition("you have \(Self.linksPerPerson) links already: delete one first")
    }
  }

  /// Deletes one of `userID`'s links and its fetch state (what it brought stays).
  public func deleteLink(name: String, of userID: String) async throws {
    guard try await store.deletePortalLink(name: name, userID: userID, source: Self.linkPrefix(of: userID) + name) else {
      throw ServiceError.notFound("you have no link \(name)")
    }
  }

  /// A name: 1 to 60 letters, digits, `-` or `_`.
  static func checkName(_ name: String, _ check: inout InputValidation) {
    if name.isEmpty || name.count > 60 || !name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }) {
      check.fail("name", "1 to 60 letters, digits, - or _")
    }
  }

  /// Saves a source an admin manages: a name (letters, digits, `-`, `_`; not a configured
  /// source's) and an absolute http(s) URL.
  public func save(_ source: ReferenceSource) async throws {
    var check = InputValidation()
    Self.checkName(source.name, &check)
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
