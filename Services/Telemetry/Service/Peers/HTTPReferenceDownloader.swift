import AsyncHTTPClient
import BinarioDomain
import Foundation
import NIOCore

/// ``ReferenceDownloader`` on async-http-client: 30 s per request, bodies up to 64 MiB.
public struct HTTPReferenceDownloader: ReferenceDownloader {
  let client: HTTPClient

  public init(client: HTTPClient = .shared) {
    self.client = client
  }

  public func get(_ url: String) async throws -> Data {
    let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
    guard response.status == .ok else { throw ServiceError.failedPrecondition("\(url) answered HTTP \(response.status.code)") }
    var body = try await response.body.collect(upTo: 64 << 20)
    return Data(body.readBytes(length: body.readableBytes) ?? [])
  }
}
