import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore

/// A provider's signing keys (JWKS), loaded from a file once or fetched over HTTP with
/// async-http-client and cached.
///
/// A fetched set is kept for the response's `Cache-Control: max-age` (an hour when it gives
/// none). A token signed by a key the set does not have makes ``refreshedKeys()`` fetch again,
/// at most once a minute, so a provider's key rotation is picked up without a restart and a
/// stream of bad tokens cannot make identity hammer the provider.
public actor OpenIDKeySet {
  private let source: OpenIDProviderConfiguration.KeySource
  private let httpClient: HTTPClient
  private var cached: JWTKeyCollection?
  private var fetchedAt: ContinuousClock.Instant?
  private var maxAge: Duration = .seconds(3600)
  private let minimumRefetchInterval: Duration

  /// - Parameter minimumRefetchInterval: The least time between two fetches for unknown keys.
  public init(
    source: OpenIDProviderConfiguration.KeySource,
    httpClient: HTTPClient = .shared,
    minimumRefetchInterval: Duration = .seconds(60)
  ) {
    self.source = source
    self.httpClient = httpClient
    self.minimumRefetchInterval = minimumRefetchInterval
  }

  /// The keys, loading or fetching them if they are missing or stale.
  public func keys() async throws -> JWTKeyCollection {
    if let cached, case .file = source { return cached }
    if let cached, let fetchedAt, fetchedAt.duration(to: .now) < maxAge {
      return cached
    }
    return try await load()
  }

  /// The keys fetched anew, if the last fetch is older than the minimum refetch interval and they
  /// come from a URL; `nil` otherwise.
  public func refreshedKeys() async throws -> JWTKeyCollection? {
    guard case .url = source else { return nil }
    if let fetchedAt, fetchedAt.duration(to: .now) < minimumRefetchInterval { return nil }
    return try await load()
  }

  private func load() async throws -> JWTKeyCollection {
    let json: String
    switch source {
    case .file(let path):
      json = try String(contentsOfFile: path, encoding: .utf8)
    case .url(let url):
      let response = try await httpClient.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
      guard response.status == .ok else {
        throw OpenIDKeySetError.fetchFailed(url: url, reason: "HTTP \(response.status.code)")
      }
      let body = try await response.body.collect(upTo: 1 << 20)
      json = String(buffer: body)
      maxAge = Self.maxAge(cacheControl: response.headers["cache-control"].first) ?? .seconds(3600)
    }
    let keys = JWTKeyCollection()
    do {
      try await keys.add(jwksJSON: json)
    } catch {
      throw OpenIDKeySetError.malformed("\(error)")
    }
    cached = keys
    fetchedAt = .now
    return keys
  }

  /// `max-age` of a `Cache-Control` header.
  static func maxAge(cacheControl: String?) -> Duration? {
    guard let cacheControl else { return nil }
    for directive in cacheControl.split(separator: ",") {
      let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int64(parts[1]), seconds >= 0 {
        return .seconds(seconds)
      }
    }
    return nil
  }
}

/// Why the provider's keys could not be had.
public enum OpenIDKeySetError: Error, Sendable, CustomStringConvertible {
  case fetchFailed(url: String, reason: String)
  case malformed(String)

  public var description: String {
    switch self {
    case .fetchFailed(let url, let reason): return "fetching the sign-in provider's keys from \(url) failed: \(reason)"
    case .malformed(let reason): return "the sign-in provider's keys are not a JWKS document: \(reason)"
    }
  }
}
