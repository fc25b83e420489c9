import BinarioDomain
import Foundation

/// Getting a URL's body: the one thing the fetcher needs of HTTP (``HTTPReferenceDownloader`` in `Peers/`).
public protocol ReferenceDownloader: Sendable {
  func get(_ url: String) async throws -> Data
}
