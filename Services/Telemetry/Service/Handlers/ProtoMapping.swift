import BinarioDomain
import BinarioProto
import Foundation
import SwiftProtobuf

extension Measure {
  /// The domain's measure of a request's; `nil` for unspecified (or a value this build does not
  /// know).
  init?(_ proto: Binario_Telemetry_V1_Measure) {
    switch proto {
    case .temperature: self = .temperature
    case .humidity: self = .humidity
    case .pressure: self = .pressure
    case .altitude: self = .altitude
    case .tvoc: self = .tvoc
    case .eco2: self = .eco2
    case .pm05: self = .pm0_5
    case .pm1: self = .pm1
    case .pm25: self = .pm2_5
    case .pm4: self = .pm4
    case .pm10: self = .pm10
    case .unspecified, .UNRECOGNIZED: return nil
    }
  }

  /// A request's required measure; INVALID_ARGUMENT naming `field` when it is unspecified.
  static func required(_ proto: Binario_Telemetry_V1_Measure, field: String = "measure") throws -> Measure {
    guard let measure = Measure(proto) else {
      throw ServiceError.invalid(field, "name a measure (\(Measure.allCases.map(\.rawValue).joined(separator: ", ")))")
    }
    return measure
  }

  var proto: Binario_Telemetry_V1_Measure {
    switch self {
    case .temperature: return .temperature
    case .humidity: return .humidity
    case .pressure: return .pressure
    case .altitude: return .altitude
    case .tvoc: return .tvoc
    case .eco2: return .eco2
    case .pm0_5: return .pm05
    case .pm1: return .pm1
    case .pm2_5: return .pm25
    case .pm4: return .pm4
    case .pm10: return .pm10
    }
  }
}

extension Reading {
  /// A reading of an upload; a reading without a time gets the epoch, which is then refused as
  /// implausible only if the measures are (a board without a clock fix is a board bug, kept
  /// visible rather than guessed).
  init(_ proto: Binario_Telemetry_V1_Reading) {
    var values = MeasureValues()
    if proto.hasTemperature { values[.temperature] = proto.temperature }
    if proto.hasHumidity { values[.humidity] = proto.humidity }
    if proto.hasPressure { values[.pressure] = proto.pressure }
    if proto.hasAltitude { values[.altitude] = proto.altitude }
    if proto.hasTvoc { values[.tvoc] = proto.tvoc }
    if proto.hasEco2 { values[.eco2] = proto.eco2 }
    if proto.hasPm05 { values[.pm0_5] = proto.pm05 }
    if proto.hasPm1 { values[.pm1] = proto.pm1 }
    if proto.hasPm25 { values[.pm2_5] = proto.pm25 }
    if proto.hasPm4 { values[.pm4] = proto.pm4 }
    if proto.hasPm10 { values[.pm10] = proto.pm10 }
    // A GPS module without a fix reports 0, 0 (in the Gulf of Guinea, where no board is carried).
    let fixed = proto.hasGpsFix ? proto.gpsFix : !(proto.latitude == 0 && proto.longitude == 0)
    self.init(
      time: proto.time.date,
      position: fixed ? GeoPoint(latitude: proto.latitude, longitude: proto.longitude) : nil,
      altitude: proto.hasPositionAltitude ? proto.positionAltitude : nil,
      values: values
    )
  }
}

extension Binario_Telemetry_V1_Reading {
  /// The message of a reading (what clients build to upload).
  public init(_ reading: Reading) {
    self.init()
    time = Google_Protobuf_Timestamp(date: reading.time)
    if let position = reading.position {
      latitude = position.latitude
      longitude = position.longitude
    } else {
      gpsFix = false
    }
    if let altitude = reading.altitude { positionAltitude = altitude }
    for (measure, value) in reading.values {
      switch measure {
      case .temperature: temperature = value
      case .humidity: humidity = value
      case .pressure: pressure = value
      case .altitude: self.altitude = value
      case .tvoc: tvoc = value
      case .eco2: eco2 = value
      case .pm0_5: pm05 = value
      case .pm1: pm1 = value
      case .pm2_5: pm25 = value
      case .pm4: pm4 = value
      case .pm10: pm10 = value
      }
    }
  }
}

extension Binario_Telemetry_V1_UploadReadingsResponse {
  init(_ outcome: IngestOutcome, indexOffset: Int = 0) {
    self.init()
    stored = Int32(clamping: outcome.stored)
    duplicates = Int32(clamping: outcome.duplicates)
    accepted = Int32(clamping: outcome.accepted)
    rejected = outcome.rejected.map { refusal in
      .with {
        $0.index = Int32(clamping: refusal.index + indexOffset)
        $0.reason = refusal.reason
      }
    }
  }
}

extension Binario_Telemetry_V1_Device {
  init(_ device: Device, callerID: String, presence: BoardPresence) {
    self.init()
    id = device.id
    name = device.name
    ownerUserID = device.ownerUserID
    campaignID = device.campaignID ?? ""
    hasToken_p = device.hasToken
    if let issued = device.tokenIssuedAt { tokenIssuedAt = Google_Protobuf_Timestamp(date: issued) }
    createdAt = Google_Protobuf_Timestamp(date: device.createdAt)
    mine = device.ownerUserID == callerID
    if let seen = presence.lastSeen { lastSeen = Google_Protobuf_Timestamp(date: seen) }
    online = presence.isOnline
  }
}

extension Binario_Telemetry_V1_BoardPresence {
  init(_ presence: BoardPresence) {
    self.init()
    deviceID = presence.deviceID
    if let seen = presence.lastSeen { lastSeen = Google_Protobuf_Timestamp(date: seen) }
    online = presence.isOnline
  }
}

extension Binario_Telemetry_V1_Campaign {
  init(_ campaign: Campaign) {
    self.init()
    id = campaign.id
    name = campaign.name
    ownerUserID = campaign.ownerUserID
    `public` = campaign.isPublic
    memberUserIds = campaign.memberUserIDs
  }
}

extension Binario_Telemetry_V1_ReferenceSensor {
  init(_ sensor: ReferenceSensor) {
    self.init()
    sensorID = sensor.sensorID
    typeName = sensor.typeName
    unit = sensor.unit
    stationID = sensor.stationID
    stationName = sensor.stationName
    if let elevation = sensor.elevation { self.elevation = elevation }
    province = sensor.province
    municipality = sensor.municipality
    historical = sensor.historical
    latitude = sensor.position.latitude
    longitude = sensor.position.longitude
    network = sensor.network.rawValue
    measure = sensor.measure?.proto ?? .unspecified
  }
}

extension Binario_Telemetry_V1_MapPoint {
  init(_ point: MapPoint, of measure: Measure) {
    self.init()
    self.time = Google_Protobuf_Timestamp(date: point.time)
    self.latitude = point.position.latitude
    self.longitude = point.position.longitude
    self.value = point.value
    self.band = .init(measure.airQualityBand(of: point.value))
  }
}

extension Binario_Telemetry_V1_ReferenceValue {
  /// A reference station's mean of a measure over a box and range.
  init(_ station: (sensor: ReferenceSensor, mean: Double, count: Int), of measure: Measure) {
    self.init()
    self.sensor = .init(station.sensor)
    self.mean = station.mean
    self.count = Int32(clamping: station.count)
    self.band = .init(measure.airQualityBand(of: station.mean))
  }
}

extension Binario_Telemetry_V1_AirQualityBand {
  init(_ band: AirQualityBand?) {
    switch band {
    case nil: self = .unspecified
    case .good: self = .good
    case .fair: self = .fair
    case .moderate: self = .moderate
    case .poor: self = .poor
    case .veryPoor: self = .veryPoor
    case .extremelyPoor: self = .extremelyPoor
    }
  }
}

extension Binario_Telemetry_V1_GetAirQualityIndexResponse {
  /// The index's bands, their words in `language`.
  init(language: Language) {
    self.init()
    source = AirQualityBand.source
    bands = AirQualityBand.allCases.map { band in
      .with {
        $0.band = .init(band)
        $0.name = band.name.rendered(in: language)
        $0.colour = band.colour
        $0.advice = band.advice.rendered(in: language)
        $0.sensitiveAdvice = band.sensitiveAdvice.rendered(in: language)
        $0.ranges = Pollutant.allCases.map { pollutant in
          let range = pollutant.range(of: band)
          return .with {
            $0.pollutant = pollutant.rawValue
            $0.measure = Measure.allCases.first { $0.pollutant == pollutant }?.proto ?? .unspecified
            $0.from = range.from
            if let to = range.to { $0.to = to }
          }
        }
      }
    }
  }
}

extension Binario_Telemetry_V1_ImportReferenceDataResponse {
  init(_ outcome: ReferenceData.ImportOutcome) {
    self.init()
    read = Int32(clamping: outcome.read)
    added = Int32(clamping: outcome.added)
    skipped = Int32(clamping: outcome.skipped)
    problems = Array(outcome.problems.prefix(20))
  }
}
