import BinarioDomain
import Foundation

/// What an admin tells travellers about the service: a strike, works on a line, a station
/// closed. Written in one or both of the suite's languages, for some lines and stations (none:
/// the whole network), in force from `startsAt` until `endsAt`. GTFS-realtime calls it an Alert,
/// and its cause and effect are that specification's.
public struct ServiceNotice: Sendable, Hashable {
  public enum Cause: String, Sendable, Hashable, CaseIterable {
    case other
    case technicalProblem = "technical_problem"
    case strike, demonstration, accident, holiday, weather, maintenance,
      construction
    case policeActivity = "police_activity"
    case medicalEmergency = "medical_emergency"
  }

  public enum Effect: String, Sendable, Hashable, CaseIterable {
    case noService = "no_service"
    case reducedService = "reduced_service"
    case significantDelays = "significant_delays"
    case detour
    case
      additionalService = "additional_service"
    case modifiedService = "modified_service"
    case other
    case stopMoved = "stop_moved"
  }

  /// A title and a description in one language.
  public struct Text: Sendable, Hashable {
    public var language: Language
    public var title: String
    public var description: String

    public init(language: Language, title: String, description: String) {
      self.language = language
      self.title = title
      self.description = description
    }
  }

  public var id: String
  /// At most one per language, in the order written.
  public var texts: [Text]
  public var lineIDs: [String]
  public var stationIDs: [String]
  public var startsAt: Date
  public var endsAt: Date
  public var cause: Cause
  public var effect: Effect
  public var createdBy: String
  public var createdAt: Date
  public var followersTold: Int

  public init(
    id: String,
    texts: [Text],
    lineIDs: [String],
    stationIDs: [String],
    startsAt: Date,
    endsAt: Date,
    cause: Cause,
    effect: Effect,
    createdBy: String,
    createdAt: Date,
    followersTold: Int = 0
  ) {
    self.id = id
    self.texts = texts
    self.lineIDs = lineIDs
    self.stationIDs = stationIDs
    self.startsAt = startsAt
    self.endsAt = endsAt
    self.cause = cause
    self.effect = effect
    self.createdBy = createdBy
    self.createdAt = createdAt
    self.followersTold = followersTold
  }

  public var isNetworkWide: Bool { lineIDs.isEmpty && stationIDs.isEmpty }

  /// Whether the notice is in force at some instant of `start ..< end`.
  public func overlaps(_ start: Date, _ end: Date) -> Bool { startsAt < end && start < endsAt }

  /// Whether it concerns a run of `lineID` calling at `stationIDs`.
  public func concerns(lineID: String, stationIDs calls: some Sequence<String>) -> Bool {
    isNetworkWide || lineIDs.contains(lineID) || calls.contains { stationIDs.contains($0) }
  }

  /// Whether it concerns a station's board: the station itself, or a line leaving from it.
  public func concerns(stationID: String, lineIDs lines: some Sequence<String>) -> Bool {
    isNetworkWide || stationIDs.contains(stationID) || lines.contains { lineIDs.contains($0) }
  }

  /// The title and description in `language`, else in the first language written.
  public func text(in language: Language) -> Text? {
    texts.first { $0.language == language } ?? texts.first
  }

  /// The words a follower is pushed, in every language (each falling back to the one written).
  public var notification: (title: TranslatedText, body: TranslatedText) {
    let english = text(in: .english)
    var titles: [String: String] = [:]
    var bodies: [String: String] = [:]
    for language in Language.allCases where language != .english {
      titles[language.rawValue] = text(in: language)?.title
      bodies[language.rawValue] = text(in: language)?.description
    }
    return (
      TranslatedText(english: english?.title ?? "", translations: titles),
      TranslatedText(english: english?.description ?? "", translations: bodies)
    )
  }
}
