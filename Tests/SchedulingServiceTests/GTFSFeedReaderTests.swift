import Foundation
import Testing

@testable import SchedulingService

@Suite("GTFS static feeds: reading, checking, service days and times past midnight")
struct GTFSFeedReaderTests {
  static let demoFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Services/Scheduling/DemoNetwork")

  static func folder(_ url: URL) throws -> [String: [UInt8]] {
    try GTFSFeedFiles.folder(url.path)
  }

  /// A minimal valid feed, as text per file, for tests to break one piece of.
  static let minimal: [String: String] = [
    "agency.txt": "agency_id,agency_name,agency_timezone\nTN,Trenord,Europe/Rome\n",
    "stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,45.0,9.0\nB,Beta,45.1,9.1\n",
    "routes.txt": "route_id,agency_id,route_short_name,route_type\nR1,TN,R1,2\n",
    "trips.txt": "route_id,service_id,trip_id,trip_short_name\nR1,S,T1,101\n",
    "stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,23:50:00,23:50:00,A,1\nT1,24:20:00,24:20:00,B,2\n",
    "calendar.txt": "service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nS,1,1,1,1,1,0,0,20261101,20261231\n",
    "calendar_dates.txt": "service_id,date,exception_type\nS,20261129,1\nS,20261208,2\n",
  ]

  static func read(_ changes: [String: String?] = [:]) throws(GTFSError) -> GTFSFeed {
    var files = Self.minimal
    for (name, text) in changes { files[name] = text }
    return try GTFSFeedReader.read(files: files.mapValues { Array($0.utf8) })
  }

  @Test func theDemoNetworkIsAValidFeedOfTheMilanArea() throws {
    let feed = try GTFSFeedReader.read(files: Self.folder(Self.demoFolder))
    let stations = feed.stops.filter { $0.parentStation == nil }
    #expect(stations.count >= 20)
    for name in ["Milano Centrale", "Milano Porta Garibaldi", "Milano Cadorna", "Milano Rogoredo", "Malpensa Aeroporto T2", "Como San Giovanni"] {
      #expect(stations.contains { $0.name == name }, "\(name) is missing")
    }
    let centrale = try #require(stations.first { $0.name == "Milano Centrale" })
    #expect(abs(centrale.latitude - 45.486) < 0.01 && abs(centrale.longitude - 9.204) < 0.01)
    #expect(feed.routes.count >= 5)
    // A weekday runs every trip; a Sunday and a holiday (8 December, a Tuesday) only the daily ones.
    let weekday = feed.trips(on: ServiceDate(year: 2026, month: 11, day: 25)!).count
    let sunday = feed.trips(on: ServiceDate(year: 2026, month: 11, day: 29)!).count
    let holiday = feed.trips(on: ServiceDate(year: 2026, month: 12, day: 8)!).count
    #expect(weekday == feed.trips.count && sunday < weekday && holiday == sunday)
    // The last S5 reaches Varese at 01:13 the next morning: 25:13:00 of its service day.
    let late = try #require(feed.stopTimes["S5_24035"]?.last)
    #expect(late.arrival.secondsSinceServiceDayStart == 25 * 3600 + 13 * 60)
    #expect(late.arrival.description == "25:13:00")
  }

  @Test func timesPastMidnightAndCalendarExceptionsBelongToTheServiceDay() throws {
    let feed = try Self.read()
    #expect(feed.stopTimes["T1"]?.map(\.arrival.secondsSinceServiceDayStart) == [85_800, 87_600])
    #expect(feed.runs("S", on: ServiceDate(gtfs: "20261127")!))  // a Friday
    #expect(!feed.runs("S", on: ServiceDate(gtfs: "20261128")!))  // a Saturday
    #expect(feed.runs("S", on: ServiceDate(gtfs: "20261129")!))  // a Sunday added by an exception
    #expect(!feed.runs("S", on: ServiceDate(gtfs: "20261208")!))  // a Tuesday removed by one
    #expect(!feed.runs("S", on: ServiceDate(gtfs: "20270104")!))  // after the calendar's end
  }

  @Test func quotedFieldsByteOrderMarksAndCRLFAreRead() throws {
    let stops = "\u{FEFF}stop_id,stop_name,stop_lat,stop_lon\r\nA,\"Milano, \"\"Centrale\"\"\nBinari\",45.0,9.0\r\nB,Beta,45.1,9.1\r\n"
    let feed = try Self.read(["stops.txt": stops])
    #expect(feed.stops.first?.name == "Milano, \"Centrale\"\nBinari")
    #expect(feed.stops.count == 2)
  }

  @Test(
    arguments: [
      (
        ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,23:50:00,23:50:00,A,1\nT1,24:2:00,24:20:00,B,2\n"],
        "stop_times.txt:3:2"
      ),
      (
        ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,23:50:00,23:50:00,A,1\nT1,24:20:00,24:20:00,Z,2\n"],
        "stop_times.txt:3:4"
      ),
      // Time going back along the trip (its rows in any order: by stop_sequence).
      (
        ["stop_times.txt": "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,23:40:00,23:40:00,B,2\nT1,23:50:00,23:50:00,A,1\n"],
        "stop_times.txt:2:2"
      ),
      (["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,95.0,9.0\nB,Beta,45.1,9.1\n"], "stops.txt:2:3"),
      (["stops.txt": "stop_id,stop_name,stop_lon\nA,Alpha,9.0\n"], "stops.txt:1"),
      (["stops.txt": "stop_id,stop_name,stop_lat,stop_lon\nA,\"Alpha,45.0,9.0\n"], "stops.txt:2:2"),
      (["trips.txt": "route_id,service_id,trip_id\nR9,S,T1\n"], "trips.txt:2:1"),
      (["calendar_dates.txt": "service_id,date,exception_type\nS,20261331,1\n"], "calendar_dates.txt:2:2"),
      (["routes.txt": nil], "routes.txt"),
    ] as [([String: String?], String)]
  )
  func aMalformedFeedNamesTheFileLineAndColumn(changes: [String: String?], place: String) {
    let error = #expect(throws: GTFSError.self) { try Self.read(changes) }
    #expect(error?.description.hasPrefix(place + ":") == true, "\(error.map(String.init(describing:)) ?? "no error")")
  }

  static let sampleFeed = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/GTFS/google-sample-feed-1")

  /// The GTFS reference's sample feed, as published: another zone, headway-based trips, hours
  /// written with one digit, files we do not use.
  @Test func theGTFSReferencesSampleFeedIsReadInItsAgencysZoneWithItsFrequenciesExpanded() throws {
    let feed = try GTFSFeedReader.read(files: Self.folder(Self.sampleFeed))
    #expect(feed.timezone == "America/Los_Angeles")
    #expect(feed.unusedFiles == ["fare_attributes.txt", "fare_rules.txt", "shapes.txt"])
    // STBA: every 30 minutes from 6:00, while before 22:00; the template itself no longer runs.
    let shuttles = feed.trips.filter { $0.id.hasPrefix("STBA") }.map(\.id).sorted()
    #expect(shuttles.count == 32)
    #expect(shuttles.first == "STBA-060000" && shuttles.last == "STBA-213000")
    #expect(!feed.trips.contains { $0.id == "STBA" })
    // CITY1's five windows: 4 + 12 + 12 + 18 + 6 runs.
    #expect(feed.trips.filter { $0.id.hasPrefix("CITY1-") }.count == 52)
    // A run keeps the template's spacing from its start: 08:00 at STAGECOACH, 08:05 at NANAA.
    let run = try #require(feed.stopTimes["CITY1-080000"])
    #expect(run.map(\.stopID) == ["STAGECOACH", "NANAA", "NADAV", "DADAN", "EMSI"])
    #expect(run[0].departure.description == "08:00:00" && run[1].arrival.description == "08:05:00" && run[4].departure.description == "08:28:00")
    // Trips without frequencies stay as they are.
    #expect(feed.stopTimes["AB1"]?.first?.departure.description == "08:00:00")
  }

  @Test func exactTimesTripsExpandToTheirExactStartsAndOverlapsOrBadValuesAreRefused() throws {
    let frequencies = "trip_id,start_time,end_time,headway_secs,exact_times\nT1,06:00:00,07:00:00,1200,1\n"
    let feed = try Self.read(["frequencies.txt": frequencies])
    #expect(feed.trips.map(\.id) == ["T1-060000", "T1-062000", "T1-064000"])
    #expect(feed.trips.allSatisfy { $0.shortName == "101" })
    #expect(feed.stopTimes["T1-062000"]?.map(\.arrival.description) == ["06:20:00", "06:50:00"])
    for (text, place) in [
      ("trip_id,start_time,end_time,headway_secs,exact_times\nT1,06:00:00,07:00:00,1200,2\n", "frequencies.txt:2:5"),
      ("trip_id,start_time,end_time,headway_secs\nT1,06:00:00,07:00:00,1200\nT1,06:30:00,08:00:00,600\n", "frequencies.txt:3:2"),
      ("trip_id,start_time,end_time,headway_secs\nT1,06:00:00,07:00:00,0\n", "frequencies.txt:2:4"),
      ("trip_id,start_time,end_time,headway_secs\nT9,06:00:00,07:00:00,600\n", "frequencies.txt:2:1"),
    ] {
      let error = #expect(throws: GTFSError.self) { try Self.read(["frequencies.txt": text]) }
      #expect(error?.description.hasPrefix(place + ":") == true, "\(error.map(String.init(describing:)) ?? "no error")")
    }
  }

  @Test func stopsWithoutTimesAreInterpolatedBetweenTimepoints() throws {
    let stops = "stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,45.0,9.0\nB,Beta,45.1,9.1\nC,Gamma,45.2,9.2\nD,Delta,45.3,9.3\n"
    // Evenly by stop: B and C share the 30 minutes from A to D.
    let even = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,A,1\nT1,,,B,2\nT1,,,C,3\nT1,08:30:00,08:30:00,D,4\n"
    let evenFeed = try Self.read(["stops.txt": stops, "stop_times.txt": even])
    #expect(evenFeed.stopTimes["T1"]?.map(\.arrival.description) == ["08:00:00", "08:10:00", "08:20:00", "08:30:00"])
    // By distance travelled, when the stops give it.
    let byDistance =
      "trip_id,arrival_time,departure_time,stop_id,stop_sequence,shape_dist_traveled\nT1,08:00:00,08:00:00,A,1,0\nT1,,,B,2,9\nT1,,,C,3,12\nT1,08:30:00,08:30:00,D,4,15\n"
    let distanceFeed = try Self.read(["stops.txt": stops, "stop_times.txt": byDistance])
    #expect(distanceFeed.stopTimes["T1"]?.map(\.arrival.description) == ["08:00:00", "08:18:00", "08:24:00", "08:30:00"])
    // The last stop must have its time.
    let open = "trip_id,arrival_time,departure_time,stop_id,stop_sequence\nT1,08:00:00,08:00:00,A,1\nT1,,,B,2\n"
    let error = #expect(throws: GTFSError.self) { try Self.read(["stop_times.txt": open]) }
    #expect(error?.description.hasPrefix("stop_times.txt:3:2:") == true)
  }

  @Test func theAgencysZoneMustBeARealZoneAndTheSameForEveryAgency() {
    let unknown = #expect(throws: GTFSError.self) {
      try Self.read(["agency.txt": "agency_id,agency_name,agency_timezone\nTN,Trenord,Europe/Milan\n"])
    }
    #expect(unknown?.description.hasPrefix("agency.txt:2:3:") == true)
    let mixed = #expect(throws: GTFSError.self) {
      try Self.read(["agency.txt": "agency_id,agency_name,agency_timezone\nTN,Trenord,Europe/Rome\nSBB,SBB,Europe/London\n"])
    }
    #expect(mixed?.description.hasPrefix("agency.txt:3:3:") == true)
  }

  @Test func textThatIsNotUTF8IsRefusedWithItsFileAndLine() {
    // "Città" saved as Latin-1 (à is the one byte 0xE0), as older exports are.
    var files = Self.minimal.mapValues { Array($0.utf8) }
    files["stops.txt"] = Array("stop_id,stop_name,stop_lat,stop_lon\nA,Alpha,45.0,9.0\nB,Citt".utf8) + [0xE0] + Array(",45.1,9.1\n".utf8)
    let error = #expect(throws: GTFSError.self) { try GTFSFeedReader.read(files: files) }
    #expect(error?.description == "stops.txt:3:2: the text is not valid UTF-8 (save the file as UTF-8)")
  }

  @Test func serviceDatesCountDaysAndWeekdays() throws {
    let date = try #require(ServiceDate(gtfs: "20261125"))
    #expect(date.weekday == 3)  // a Wednesday
    #expect(ServiceDate(daysSinceEpoch: date.daysSinceEpoch) == date)
    #expect(ServiceDate(daysSinceEpoch: 0).description == "1970-01-01")
    #expect(date.adding(days: 7).description == "2026-12-02")
    #expect(ServiceDate(gtfs: "20280229") != nil && ServiceDate(gtfs: "20270229") == nil && ServiceDate(gtfs: "2026-11-25") == nil)
    #expect(ServiceTime(gtfs: "7:05:00")?.secondsSinceServiceDayStart == 25_500)
    #expect(ServiceTime(gtfs: "48:00:00") == nil && ServiceTime(gtfs: "12:60:00") == nil)
  }
}
