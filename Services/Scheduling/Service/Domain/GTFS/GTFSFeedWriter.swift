import BinarioDomain
import Foundation

/// Writes a ``GTFSFeed`` as a GTFS static feed's files (CSV, RFC 4180 quoting, UTF-8), what
/// ``GTFSFeedReader`` reads back: agency, stops (a stop that is another's parent is a station,
/// `location_type` 1), routes, trips, stop_times, calendar and calendar_dates as the feed has
/// them, and feed_info naming the publisher and the dates the feed covers.
public enum GTFSFeedWriter {
  public static func files(_ feed: GTFSFeed, version: String) -> [(name: String, bytes: [UInt8])] {
    var files: [(name: String, bytes: [UInt8])] = []
    func add(_ name: String, _ header: [String], _ rows: [[String]]) {
      var text = CSVLine.encode(header)
      for row in rows { text += CSVLine.encode(row) }
      files.append((name, Array(text.utf8)))
    }
    add(
      "agency.txt",
      ["agency_id", "agency_name", "agency_url", "agency_timezone", "agency_lang"],
      feed.agencies.map { [$0.id, $0.name, $0.url, $0.timezone, $0.language] }
    )
    let parents = Set(feed.stops.compactMap(\.parentStation))
    add(
      "stops.txt",
      ["stop_id", "stop_code", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station", "platform_code"],
      feed.stops.map { stop in
        [
          stop.id, stop.code, stop.name, Self.coordinate(stop.latitude), Self.coordinate(stop.longitude),
          parents.contains(stop.id) ? "1" : "0", stop.parentStation ?? "", stop.platformCode ?? "",
        ]
      }
    )
    add(
      "routes.txt",
      ["route_id", "agency_id", "route_short_name", "route_long_name", "route_type"],
      feed.routes.map { [$0.id, $0.agencyID, $0.shortName, $0.longName, String($0.type)] }
    )
    add(
      "trips.txt",
      ["route_id", "service_id", "trip_id", "trip_headsign", "trip_short_name"],
      feed.trips.map { [$0.routeID, $0.serviceID, $0.id, $0.headsign, $0.shortName] }
    )
    add(
      "stop_times.txt",
      ["trip_id", "arrival_time", "departure_time", "stop_id", "stop_sequence"],
      feed.trips.flatMap { trip in
        (feed.stopTimes[trip.id] ?? []).map { [trip.id, $0.arrival.description, $0.departure.description, $0.stopID, String($0.sequence)] }
      }
    )
    if !feed.calendars.isEmpty {
      add(
        "calendar.txt",
        ["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "start_date", "end_date"],
        feed.calendars.map { [$0.serviceID] + $0.weekdays.map { $0 ? "1" : "0" } + [$0.start.gtfs, $0.end.gtfs] }
      )
    }
    if !feed.calendarExceptions.isEmpty {
      add(
        "calendar_dates.txt",
        ["service_id", "date", "exception_type"],
        feed.calendarExceptions.map { [$0.serviceID, $0.date.gtfs, $0.added ? "1" : "2"] }
      )
    }
    let dates = feed.calendars.flatMap { [$0.start, $0.end] } + feed.calendarExceptions.filter(\.added).map(\.date)
    let agency = feed.agencies[0]
    add(
      "feed_info.txt",
      ["feed_publisher_name", "feed_publisher_url", "feed_lang", "feed_start_date", "feed_end_date", "feed_version"],
      [[agency.name, agency.url, agency.language.isEmpty ? "mul" : agency.language, dates.min()?.gtfs ?? "", dates.max()?.gtfs ?? "", version]]
    )
    return files
  }

  private static func coordinate(_ value: Double) -> String {
    String(format: "%.6f", value)
  }
}
