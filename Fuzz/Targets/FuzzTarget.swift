@_spi(Fuzzing) import BinarioTransport
import Foundation
@_spi(Fuzzing) import GatewayService
import SchedulingService
import TelemetryService

/// Everything the suite reads from a stranger, as one function of bytes each: what libFuzzer
/// drives (`scripts/fuzz.sh`, the `binario-fuzz` program in `Fuzz/`) and what the regression test
/// replays (every kept input under `Fuzz/Corpus/<target>` and `Fuzz/Regressions/<target>`).
///
/// Inputs with several parts separate them with a NUL byte, so a kept input reads as text.
/// A target returns normally for any input; a crash, a trap or a broken promise (checked with
/// `precondition`) is what the fuzzer reports.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// The Swift frame layer's server side: the decoder, the connection's frames, calls and answers.
  case frames
  /// The gateway's handling of a client's method and metadata: request id, trace context,
  /// access check, the metadata it forwards.
  case gatewayMetadata = "gateway-metadata"
  /// Access tokens: the `authorization` value, and the claims behind a valid signature.
  case accessToken = "access-token"
  /// The HTTP/JSON door: route matching, path and query parameters, the JSON body, answers.
  case httpJSON = "http-json"
  /// Scheduling's GTFS importer: a zipped feed, or the feed's files.
  case gtfs
  /// Telemetry's open-data importers: ARPA Lombardia's sensor lists and measurements.
  case openData = "open-data"

  /// Runs the target on one input.
  public func run(_ input: [UInt8]) {
    switch self {
    case .frames:
      _ = try? FrameLayerFuzzing.serve(input, chunkCount: 3)
    case .gatewayMetadata:
      var parts = FuzzInput(input).parts()
      let method = parts.isEmpty ? "" : parts.removeFirst()
      let peer = parts.isEmpty ? "" : parts.removeFirst()
      var metadata = WireMetadata()
      while parts.count >= 2 {
        let key = parts.removeFirst()
        let value = parts.removeFirst()
        var entry = WireMetadataEntry()
        entry.key = key
        entry.value = key.hasSuffix("-bin") ? .binary(Data(value.utf8)) : .text(value)
        metadata.append(entry)
      }
      Self.gateway.open(method: method, metadata: metadata, peerDescription: peer)
    case .accessToken:
      guard let mode = input.first else { return }
      let rest = FuzzInput(Array(input.dropFirst()))
      if mode & 1 == 0 {
        Self.gateway.authorization(String(decoding: rest.bytes, as: UTF8.self))
      } else {
        let parts = rest.byteParts(limit: 2)
        Self.gateway.signedToken(header: parts[0], claims: parts.count > 1 ? parts[1] : [])
      }
    case .httpJSON:
      let parts = FuzzInput(input).byteParts(limit: 4)
      guard parts.count == 4 else { return }
      let text = { (bytes: [UInt8]) in String(decoding: bytes, as: UTF8.self) }
      Self.gateway.httpRequest(
        verb: text(parts[0]),
        target: text(parts[1]),
        lastEventID: parts[2].isEmpty ? nil : text(parts[2]),
        body: parts[3]
      )
    case .gtfs:
      if input.starts(with: [0x50, 0x4B]) {  // "PK": a zip archive
        guard let files = try? GTFSFeedFiles.zip(input, maximumFileSize: 1 << 20) else { return }
        _ = try? GTFSFeedReader.read(files: files)
      } else {
        let parts = FuzzInput(input).byteParts(limit: Self.gtfsFileNames.count)
        _ = try? GTFSFeedReader.read(files: Dictionary(uniqueKeysWithValues: zip(Self.gtfsFileNames, parts)))
      }
    case .openData:
      guard let mode = input.first else { return }
      let data = Data(input.dropFirst())
      switch mode % 3 {
      case 0: _ = try? ArpaImport.sensors(data, network: .airQuality)
      case 1: _ = try? ArpaImport.sensors(data, network: .weather)
      default: _ = try? ArpaImport.measurements(data)
      }
    }
  }

  /// The files of a GTFS feed, in the order an unzipped input's parts fill them.
  public static let gtfsFileNames = [
    "agency.txt", "stops.txt", "routes.txt", "trips.txt", "stop_times.txt", "calendar.txt", "calendar_dates.txt",
  ]

  /// Made once: a key pair and the access policy.
  private static let gateway = GatewayInputFuzzing()
}

/// An input cut into parts at NUL bytes.
struct FuzzInput {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// At most `limit` parts; the last keeps any further NULs.
  func byteParts(limit: Int) -> [[UInt8]] {
    self.bytes.split(separator: 0, maxSplits: limit - 1, omittingEmptySubsequences: false).map(Array.init)
  }

  /// Every part, as text.
  func parts() -> [String] {
    self.bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
  }
}
