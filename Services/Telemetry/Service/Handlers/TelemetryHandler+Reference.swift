import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

extension TelemetryHandler {
  public func listReferenceSensors(
    request: Binario_Telemetry_V1_ListReferenceSensorsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ListReferenceSensorsResponse {
    var check = InputValidation()
    if !(request.latitude.isFinite && (-90 ... 90).contains(request.latitude)) { check.fail("latitude", "must be -90 to 90") }
    if !(request.longitude.isFinite && (-180 ... 180).contains(request.longitude)) { check.fail("longitude", "must be -180 to 180") }
    let radius = request.radiusMetres == 0 ? 10_000 : request.radiusMetres
    if !(radius.isFinite && (1 ... 100_000).contains(radius)) { check.fail("radius_metres", "must be 1 to 100,000 metres") }
    try check.finish()
    let sensors = try await domain.reference.sensors(
      near: GeoPoint(latitude: request.latitude, longitude: request.longitude),
      radiusMetres: radius,
      measure: Measure(request.measure)
    )
    return .with {
      $0.sensors = sensors.map { found in
        .with {
          $0.sensor = .init(found.sensor)
          $0.distanceMetres = found.distance
        }
      }
    }
  }

  public func compareWithReference(
    request: Binario_Telemetry_V1_CompareWithReferenceRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_CompareWithReferenceResponse {
    let caller = try CallerIdentity.signedIn()
    let measure = try Measure.required(request.measure)
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let comparison = try await domain.reference.compare(
      userID: caller.userID,
      deviceID: request.deviceID,
      measure: measure,
      sensorID: try required(request.sensorID, "sensor_id"),
      in: range,
      maximumPoints: Int(request.maxPoints)
    )
    return .with {
      $0.points = comparison.points.map { point in
        .with {
          $0.start = Google_Protobuf_Timestamp(date: point.start)
          if let mine = point.mine { $0.mine = mine }
          if let reference = point.reference { $0.reference = reference }
        }
      }
      if let r = comparison.correlation { $0.correlation = r }
      $0.pairs = Int32(clamping: comparison.pairs.count)
      $0.averaging = comparison.averaging?.code ?? ""
    }
  }

  public func importReferenceData(
    request: Binario_Telemetry_V1_ImportReferenceDataRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ImportReferenceDataResponse {
    guard !request.data.isEmpty else { throw ServiceError.invalid("data", "send the file's contents") }
    switch request.kind {
    case .catalogue:
      let network: ReferenceSensor.Network
      switch request.network {
      case "", "air_quality": network = .airQuality
      case "weather": network = .weather
      default: throw ServiceError.invalid("network", "is air_quality or weather")
      }
      return .init(try await domain.reference.importCatalogue(request.data, network: network))
    case .measurements:
      return .init(try await domain.reference.importMeasurements(request.data, nearRealTime: request.nearRealTime))
    case .unspecified, .UNRECOGNIZED:
      throw ServiceError.invalid("kind", "is KIND_CATALOGUE or KIND_MEASUREMENTS")
    }
  }

  public func fetchReferenceData(
    request: Binario_Telemetry_V1_FetchReferenceDataRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_FetchReferenceDataResponse {
    let results = try await domain.fetchNow(source: request.source)
    return .with {
      $0.sources = results.map { result in
        .with {
          $0.source = result.source.name
          switch result.outcome {
          case .success(let outcome):
            $0.read = Int32(clamping: outcome.read)
            $0.added = Int32(clamping: outcome.added)
            $0.skipped = Int32(clamping: outcome.skipped)
            $0.gapFilled = Int32(clamping: outcome.gapFilled)
          case .failure(let error):
            $0.error = "\(error)"
          }
        }
      }
    }
  }

  public func listReferenceSources(
    request: Binario_Telemetry_V1_ListReferenceSourcesRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ListReferenceSourcesResponse {
    var sources: [Binario_Telemetry_V1_ReferenceSource] = []
    for (source, configured) in try await domain.sources.all() {
      sources.append(try await described(source, configured: configured))
    }
    return .with { $0.sources = sources }
  }

  public func saveReferenceSource(
    request: Binario_Telemetry_V1_SaveReferenceSourceRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_SaveReferenceSourceResponse {
    let source = try Self.source(
      name: request.name,
      url: request.url,
      kind: request.kind,
      network: request.network,
      fillGapsFrom: request.fillGapsFrom
    )
    try await domain.sources.save(source)
    let saved = try await described(source, configured: false)
    return .with { $0.source = saved }
  }

  public func deleteReferenceSource(
    request: Binario_Telemetry_V1_DeleteReferenceSourceRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_DeleteReferenceSourceResponse {
    try await domain.sources.delete(name: try required(request.name, "name"))
    return .init()
  }

  public func listMyPortalLinks(
    request: Binario_Telemetry_V1_ListMyPortalLinksRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ListMyPortalLinksResponse {
    let caller = try CallerIdentity.signedIn()
    let links = try await domain.sources.links(of: caller.userID)
    return .with { $0.links = links.map { described($0.link, configured: false, state: $0.state) } }
  }

  public func saveMyPortalLink(
    request: Binario_Telemetry_V1_SaveMyPortalLinkRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_SaveMyPortalLinkResponse {
    let caller = try CallerIdentity.signedIn()
    let link = try Self.source(name: request.name, url: request.url, kind: request.kind, network: request.network, fillGapsFrom: request.fillGapsFrom)
    try await domain.sources.saveLink(link, of: caller.userID)
    let saved = try await domain.sources.links(of: caller.userID).first { $0.link.name == link.name }
    return .with { if let saved { $0.link = described(saved.link, configured: false, state: saved.state) } }
  }

  public func deleteMyPortalLink(
    request: Binario_Telemetry_V1_DeleteMyPortalLinkRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_DeleteMyPortalLinkResponse {
    let caller = try CallerIdentity.signedIn()
    try await domain.sources.deleteLink(name: try required(request.name, "name"), of: caller.userID)
    return .init()
  }

  /// A source from a request's fields, its kind and network checked.
  static func source(name: String, url: String, kind: String, network: String, fillGapsFrom: String) throws -> ReferenceSource {
    guard let kind = ReferenceSource.Kind(rawValue: kind) else {
      throw ServiceError.invalid("kind", "is catalogue, measurements or near_real_time")
    }
    guard let network = network.isEmpty ? .airQuality : ReferenceSensor.Network(rawValue: network) else {
      throw ServiceError.invalid("network", "is air_quality or weather")
    }
    return ReferenceSource(name: name, url: url, kind: kind, network: network, fillGapsFrom: fillGapsFrom.isEmpty ? nil : fillGapsFrom)
  }

  /// A source with how its fetches went and when it is next due.
  func described(_ source: ReferenceSource, configured: Bool) async throws -> Binario_Telemetry_V1_ReferenceSource {
    described(source, configured: configured, state: try await domain.sources.fetchState(of: source.name))
  }

  func described(_ source: ReferenceSource, configured: Bool, state: FetchState) -> Binario_Telemetry_V1_ReferenceSource {
    let next = ReferenceFetcher.nextFetch(state, period: domain.fetchPeriod)
    return .with {
      $0.name = source.name
      $0.url = source.url
      $0.kind = source.kind.rawValue
      $0.network = source.network.rawValue
      $0.configured = configured
      $0.fillGapsFrom = source.fillGapsFrom ?? ""
      if let success = state.lastSuccess { $0.lastFetchedAt = Google_Protobuf_Timestamp(date: success) }
      if let failure = state.lastFailure { $0.lastFailedAt = Google_Protobuf_Timestamp(date: failure) }
      $0.lastError = state.lastError ?? ""
      $0.consecutiveFailures = Int32(clamping: state.consecutiveFailures)
      $0.nextFetchAt = Google_Protobuf_Timestamp(date: max(next, domain.clock.now()))
    }
  }
}
