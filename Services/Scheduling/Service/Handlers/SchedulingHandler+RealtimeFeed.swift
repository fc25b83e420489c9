import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import Logging
import SwiftProtobuf
import Synchronization

extension SchedulingHandler {
  public func getRealtimeFeed(
    request: Binario_Scheduling_V1_GetRealtimeFeedRequest,
    context: ServerContext
  ) async throws -> Binario_Scheduling_V1_GetRealtimeFeedResponse {
    let bytes = try feedMessage().bytes
    return .with { $0.feedMessage = Data(bytes) }
  }

  /// The response metadata key of the feed's Last-Modified (an HTTP date).
  static let lastModifiedKey = "last-modified"

  /// As ``downloadRealtimeFeed(request:context:)-(ServerRequest<_>,_)`` without the
  /// `last-modified` metadata (the protocol asks for both forms).
  public func downloadRealtimeFeed(
    request: Binario_Scheduling_V1_DownloadRealtimeFeedRequest,
    context: ServerContext
  ) async throws -> Google_Api_HttpBody {
    try realtimeFeedBody(request).body
  }

  /// The feed's bytes with its `last-modified`: this form is the one the server calls, ahead
  /// of the simple service protocol's default, which could not add metadata.
  public func downloadRealtimeFeed(
    request: ServerRequest<Binario_Scheduling_V1_DownloadRealtimeFeedRequest>,
    context: ServerContext
  ) async throws -> ServerResponse<Google_Api_HttpBody> {
    let (body, modified) = try realtimeFeedBody(request.message)
    var metadata = Metadata()
    metadata.addString(HTTPDate.string(modified), forKey: Self.lastModifiedKey)
    return ServerResponse(message: body, metadata: metadata)
  }

  private func realtimeFeedBody(_ request: Binario_Scheduling_V1_DownloadRealtimeFeedRequest) throws -> (body: Google_Api_HttpBody, modified: Date) {
    let format = request.format.lowercased()
    guard ["", "protobuf", "json"].contains(format) else {
      throw ServiceError.invalid("format", "\"protobuf\" or \"json\"")
    }
    let (bytes, modified) = try feedMessage()
    let body = try Google_Api_HttpBody.with {
      if format == "json" {
        $0.contentType = "application/json"
        $0.data = try TransitRealtime_FeedMessage(serializedBytes: bytes).jsonUTF8Data()
      } else {
        $0.contentType = "application/x-protobuf"
        $0.data = Data(bytes)
      }
    }
    return (body, modified)
  }

  /// The serialized FeedMessage now, and when its content last changed.
  private func feedMessage() throws -> (bytes: [UInt8], modified: Date) {
    let feed = try domain.realtimeFeed()
    return (try RealtimeFeedBuilder(platformStopID: feed.platformStopID).feed(feed), feed.generatedAt)
  }
}
