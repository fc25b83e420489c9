import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore

extension SchedulingHandler {
  /// As ``downloadStaticFeed(request:context:)-(ServerRequest<_>,_)`` without the
  /// `last-modified` metadata (the protocol asks for both forms).
  public func downloadStaticFeed(
    request: Binario_Scheduling_V1_DownloadStaticFeedRequest,
    context: ServerContext
  ) async throws -> Google_Api_HttpBody {
    try staticFeedBody().body
  }

  /// The zipped feed with its `last-modified` (when the timetable was imported).
  public func downloadStaticFeed(
    request: ServerRequest<Binario_Scheduling_V1_DownloadStaticFeedRequest>,
    context: ServerContext
  ) async throws -> ServerResponse<Google_Api_HttpBody> {
    let (body, modified) = try staticFeedBody()
    var metadata = Metadata()
    metadata.addString(HTTPDate.string(modified), forKey: Self.lastModifiedKey)
    return ServerResponse(message: body, metadata: metadata)
  }

  private func staticFeedBody() throws -> (body: Google_Api_HttpBody, modified: Date) {
    let (zip, modified) = try domain.staticFeed()
    return (
      .with {
        $0.contentType = "application/zip"
        $0.data = Data(zip)
      }, modified
    )
  }
}
