import BinarioAuth
import BinarioDomain
import BinarioProto
import BinarioServiceKit
import Foundation
import GRPCCore
import SwiftProtobuf

/// The gRPC face of telemetry: translates `binario.telemetry.v1.Telemetry` messages to
/// ``TelemetryDomain`` calls and its errors to statuses. Register it behind
/// ``BinarioAuth/AuthorizationServerInterceptor`` with ``BinarioAuth/MethodAccessPolicy/telemetry``:
/// the upload methods then run only with a device token (``BinarioAuth/DeviceCredential``),
/// which is checked here against the hashes the store keeps.
public struct TelemetryHandler: Binario_Telemetry_V1_Telemetry.SimpleServiceProtocol {
  let domain: TelemetryDomain

  public init(domain: TelemetryDomain) {
    self.domain = domain
  }

  /// A request's id field, which must not be empty (INVALID_ARGUMENT naming it).
  func required(_ value: String, _ field: String) throws -> String {
    guard !value.isEmpty else { throw ServiceError.invalid(field, "is required") }
    return value
  }

  /// The device the call's token uploads for.
  func uploadingDevice() async throws -> Int64 {
    guard let token = DeviceCredential.current else {
      throw ServiceError.unauthenticated("send the device's token: authorization: Device <token>")
    }
    return try await domain.registry.device(forToken: token).seq
  }

  // MARK: - Device token

  public func uploadReadings(
    request: Binario_Telemetry_V1_UploadReadingsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_UploadReadingsResponse {
    let device = try await uploadingDevice()
    return .init(try await domain.ingest.upload(deviceSeq: device, request.readings.map(Reading.init)))
  }

  public func streamReadings(
    request: RPCAsyncSequence<Binario_Telemetry_V1_StreamReadingsRequest, any Error>,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_UploadReadingsResponse {
    // The token is checked once, when the stream opens.
    let device = try await uploadingDevice()
    let outcome = try await domain.ingest.upload(deviceSeq: device) { add in
      for try await message in request { try await add(message.readings.map(Reading.init)) }
    }
    return .init(outcome)
  }

  // MARK: - Public

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

  // MARK: - Devices and campaigns

  public func registerDevice(
    request: Binario_Telemetry_V1_RegisterDeviceRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_RegisterDeviceResponse {
    let caller = try CallerIdentity.signedIn()
    let (device, token) = try await domain.registry.register(ownerUserID: caller.userID, name: request.name)
    return .with {
      $0.device = .init(device, callerID: caller.userID)
      $0.token = token
    }
  }

  public func listDevices(
    request: Binario_Telemetry_V1_ListDevicesRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ListDevicesResponse {
    let caller = try CallerIdentity.signedIn()
    let devices = try await domain.registry.devices(visibleTo: caller.userID)
    return .with { $0.devices = devices.map { .init($0, callerID: caller.userID) } }
  }

  public func rotateDeviceToken(
    request: Binario_Telemetry_V1_RotateDeviceTokenRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_RotateDeviceTokenResponse {
    let caller = try CallerIdentity.signedIn()
    let token = try await domain.registry.rotateToken(ownerUserID: caller.userID, deviceID: try required(request.deviceID, "device_id"))
    return .with { $0.token = token }
  }

  public func revokeDeviceToken(
    request: Binario_Telemetry_V1_RevokeDeviceTokenRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_RevokeDeviceTokenResponse {
    try await domain.registry.revokeToken(ownerUserID: try CallerIdentity.signedIn().userID, deviceID: try required(request.deviceID, "device_id"))
    return .init()
  }

  public func deleteDevice(
    request: Binario_Telemetry_V1_DeleteDeviceRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_DeleteDeviceResponse {
    try await domain.registry.delete(ownerUserID: try CallerIdentity.signedIn().userID, deviceID: try required(request.deviceID, "device_id"))
    return .init()
  }

  public func setDeviceCampaign(
    request: Binario_Telemetry_V1_SetDeviceCampaignRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_SetDeviceCampaignResponse {
    try await domain.registry.setCampaign(
      ownerUserID: try CallerIdentity.signedIn().userID,
      deviceID: try required(request.deviceID, "device_id"),
      campaignID: request.campaignID.isEmpty ? nil : request.campaignID
    )
    return .init()
  }

  public func createCampaign(
    request: Binario_Telemetry_V1_CreateCampaignRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_CreateCampaignResponse {
    let campaign = try await domain.registry.createCampaign(
      ownerUserID: try CallerIdentity.signedIn().userID,
      name: request.name,
      isPublic: request.public
    )
    return .with { $0.campaign = .init(campaign) }
  }

  public func listCampaigns(
    request: Binario_Telemetry_V1_ListCampaignsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ListCampaignsResponse {
    let campaigns = try await domain.registry.campaigns(visibleTo: try CallerIdentity.signedIn().userID)
    return .with { $0.campaigns = campaigns.map(Binario_Telemetry_V1_Campaign.init) }
  }

  public func addCampaignMember(
    request: Binario_Telemetry_V1_AddCampaignMemberRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_AddCampaignMemberResponse {
    var check = InputValidation()
    let member = check.requiredText(request.userID, field: "user_id", what: "the member's account id", maxLength: 100)
    try check.finish()
    try await domain.registry.addMember(
      ownerUserID: try CallerIdentity.signedIn().userID,
      campaignID: try required(request.campaignID, "campaign_id"),
      userID: member
    )
    return .init()
  }

  // MARK: - Queries

  public func getSeries(
    request: Binario_Telemetry_V1_GetSeriesRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_GetSeriesResponse {
    let caller = try CallerIdentity.signedIn()
    let measure = try Measure.required(request.measure)
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let (buckets, points) = try await domain.queries.series(
      userID: caller.userID,
      deviceID: request.deviceID,
      measure: measure,
      in: range,
      maximumPoints: Int(request.maxPoints)
    )
    return .with {
      $0.unit = measure.unit
      $0.bucketMilliseconds = Int64((buckets.width * 1000).rounded())
      $0.points = points.map { point in
        .with {
          $0.start = Google_Protobuf_Timestamp(date: point.start)
          $0.count = Int32(clamping: point.count)
          $0.min = point.minimum
          $0.mean = point.mean
          $0.max = point.maximum
        }
      }
    }
  }

  public func getStatistics(
    request: Binario_Telemetry_V1_GetStatisticsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_GetStatisticsResponse {
    let caller = try CallerIdentity.signedIn()
    let measure = try Measure.required(request.measure)
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let summary = try await domain.queries.statistics(userID: caller.userID, deviceID: request.deviceID, measure: measure, in: range)
    return .with {
      $0.unit = measure.unit
      guard let summary else { return }
      $0.count = Int64(summary.count)
      $0.min = summary.minimum
      $0.max = summary.maximum
      $0.mean = summary.mean
      $0.q1 = summary.firstQuartile
      $0.median = summary.median
      $0.q3 = summary.thirdQuartile
    }
  }

  public func getMap(request: Binario_Telemetry_V1_GetMapRequest, context: ServerContext) async throws -> Binario_Telemetry_V1_GetMapResponse {
    let caller = try CallerIdentity.signedIn()
    let measure = try Measure.required(request.measure)
    let box = try GeoBox.checked(south: request.south, west: request.west, north: request.north, east: request.east)
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let (points, total) = try await domain.queries.map(
      userID: caller.userID,
      deviceID: request.deviceID,
      measure: measure,
      within: box,
      in: range
    )
    let reference = try await domain.reference.stationMeans(measure: measure, within: box, in: range)
    return .with {
      $0.unit = measure.unit
      $0.total = Int32(clamping: total)
      $0.sampled = total > points.count
      $0.points = points.map { point in
        .with {
          $0.time = Google_Protobuf_Timestamp(date: point.time)
          $0.latitude = point.position.latitude
          $0.longitude = point.position.longitude
          $0.value = point.value
        }
      }
      $0.reference = reference.map { station in
        .with {
          $0.sensor = .init(station.sensor)
          $0.mean = station.mean
          $0.count = Int32(clamping: station.count)
        }
      }
    }
  }

  public func getGrid(request: Binario_Telemetry_V1_GetGridRequest, context: ServerContext) async throws -> Binario_Telemetry_V1_GetGridResponse {
    let caller = try CallerIdentity.signedIn()
    let measure = try Measure.required(request.measure)
    let box = try GeoBox.checked(south: request.south, west: request.west, north: request.north, east: request.east)
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let grid = try await domain.queries.grid(
      userID: caller.userID,
      deviceID: request.deviceID,
      measure: measure,
      within: box,
      in: range,
      rows: Int(request.rows == 0 ? 20 : request.rows),
      columns: Int(request.columns == 0 ? 20 : request.columns)
    )
    return .with {
      $0.unit = measure.unit
      $0.rows = Int32(grid.rows)
      $0.columns = Int32(grid.columns)
      for row in 0 ..< grid.rows {
        for column in 0 ..< grid.columns {
          guard let value = grid.value(row: row, column: column) else { continue }
          $0.cells.append(
            .with {
              $0.row = Int32(row)
              $0.column = Int32(column)
              $0.value = value
            }
          )
        }
      }
    }
  }

  public func getLatest(
    request: Binario_Telemetry_V1_GetLatestRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_GetLatestResponse {
    let latest = try await domain.queries.latest(
      userID: try CallerIdentity.signedIn().userID,
      deviceID: try required(request.deviceID, "device_id")
    )
    return .with {
      $0.values = Measure.allCases.compactMap { measure in
        latest[measure].map { found in
          .with {
            $0.measure = measure.proto
            $0.time = Google_Protobuf_Timestamp(date: found.time)
            $0.value = found.value
            $0.unit = measure.unit
          }
        }
      }
    }
  }

  public func exportReadings(
    request: Binario_Telemetry_V1_ExportReadingsRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_ExportReadingsResponse {
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let csv = try await domain.queries.csv(
      userID: try CallerIdentity.signedIn().userID,
      deviceID: try required(request.deviceID, "device_id"),
      in: range
    )
    return .with { $0.csv = csv }
  }

  public func compareWithReference(
    request: Binario_Telemetry_V1_CompareWithReferenceRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_CompareWithReferenceResponse {
    let caller = try CallerIdentity.signedIn()
    let measure = try Measure.required(request.measure)
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let points = try await domain.reference.compare(
      userID: caller.userID,
      deviceID: request.deviceID,
      measure: measure,
      sensorID: try required(request.sensorID, "sensor_id"),
      in: range,
      maximumPoints: Int(request.maxPoints)
    )
    return .with {
      $0.points = points.map { point in
        .with {
          $0.start = Google_Protobuf_Timestamp(date: point.start)
          if let mine = point.mine { $0.mine = mine }
          if let reference = point.reference { $0.reference = reference }
        }
      }
      if let r = ReferenceData.correlation(points) { $0.correlation = r }
    }
  }

  public func correlateMeasures(
    request: Binario_Telemetry_V1_CorrelateMeasuresRequest,
    context: ServerContext
  ) async throws -> Binario_Telemetry_V1_CorrelateMeasuresResponse {
    let caller = try CallerIdentity.signedIn()
    let first = try Measure.required(request.first, field: "first")
    let second = try Measure.required(request.second, field: "second")
    let range = try domain.range(from: request.hasFrom ? request.from.date : nil, to: request.hasTo ? request.to.date : nil)
    let (r, buckets) = try await domain.queries.correlate(
      userID: caller.userID,
      deviceID: request.deviceID,
      first,
      second,
      in: range,
      maximumPoints: Int(request.maxPoints)
    )
    return .with {
      if let r { $0.correlation = r }
      $0.buckets = Int32(clamping: buckets)
    }
  }

  // MARK: - Admin

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
      return .init(try await domain.reference.importMeasurements(request.data))
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
    guard let kind = ReferenceSource.Kind(rawValue: request.kind) else {
      throw ServiceError.invalid("kind", "is catalogue or measurements")
    }
    guard let network = request.network.isEmpty ? .airQuality : ReferenceSensor.Network(rawValue: request.network) else {
      throw ServiceError.invalid("network", "is air_quality or weather")
    }
    let source = ReferenceSource(name: request.name, url: request.url, kind: kind, network: network)
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

  /// A source with how its fetches went and when it is next due.
  func described(_ source: ReferenceSource, configured: Bool) async throws -> Binario_Telemetry_V1_ReferenceSource {
    let state = try await domain.store.fetchState(source: source.name)
    let next = ReferenceFetcher.nextFetch(state, period: domain.fetchPeriod)
    return .with {
      $0.name = source.name
      $0.url = source.url
      $0.kind = source.kind.rawValue
      $0.network = source.network.rawValue
      $0.configured = configured
      if let success = state.lastSuccess { $0.lastFetchedAt = Google_Protobuf_Timestamp(date: success) }
      if let failure = state.lastFailure { $0.lastFailedAt = Google_Protobuf_Timestamp(date: failure) }
      $0.lastError = state.lastError ?? ""
      $0.consecutiveFailures = Int32(clamping: state.consecutiveFailures)
      $0.nextFetchAt = Google_Protobuf_Timestamp(date: max(next, domain.clock.now()))
    }
  }
}
