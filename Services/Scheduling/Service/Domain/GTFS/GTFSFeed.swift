/// A GTFS static feed, read and checked (``GTFSFeedReader``): what the timetable is imported from.
/// Ids are the feed's own; times are ``ServiceTime``s on the service day of their trip.
public struct GTFSFeed: Sendable, Hashable {
  public struct Agency: Sendable, Hashable {
    public var id: String
    public var name: String
    public var url: String
    /// An IANA zone name; the same for every agency of a feed.
    public var timezone: String
    public var language: String

    public init(id: String, name: String, url: String, timezone: String, language: String) {
      self.id = id
      self.name = name
      self.url = url
      self.timezone = timezone
      self.language = language
    }
  }

  /// A station, or a platform of one (`parent_station` set, `platform_code` its platform).
  public struct Stop: Sendable, Hashable {
    public var id: String
    public var code: String
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var parentStation: String?
    public var platformCode: String?
  }

  /// A line.
  public struct Route: Sendable, Hashable {
    public var id: String
    public var agencyID: String
    public var shortName: String
    public var longName: String
    public var type: Int
  }

  /// One train run, on every day its service runs.
  public struct Trip: Sendable, Hashable {
    public var id: String
    public var routeID: String
    public var serviceID: String
    public var headsign: String
    /// The train number (`trip_short_name`).
    public var shortName: String
  }

  public struct StopTime: Sendable, Hashable {
    public var tripID: String
    public var sequence: Int
    public var stopID: String
    public var arrival: ServiceTime
    public var departure: ServiceTime
  }

  /// Which weekdays a service runs between two dates (`calendar.txt`).
  public struct Calendar: Sendable, Hashable {
    public var serviceID: String
    /// Monday first.
    public var weekdays: [Bool]
    public var start: ServiceDate
    public var end: ServiceDate
  }

  /// A day added to or removed from a service (`calendar_dates.txt`).
  public struct CalendarException: Sendable, Hashable {
    public var serviceID: String
    public var date: ServiceDate
    public var added: Bool
  }

  public var agencies: [Agency]
  public var stops: [Stop]
  public var routes: [Route]
  public var trips: [Trip]
  /// By trip, in stop sequence order.
  public var stopTimes: [String: [StopTime]]
  public var calendars: [Calendar]
  public var calendarExceptions: [CalendarException]
  /// The feed's files the reader did not use (shapes, fares...), by name.
  public var unusedFiles: [String] = []

  /// The zone the feed's service days are in: its agencies' `agency_timezone`.
  public var timezone: String { self.agencies[0].timezone }

  /// Whether `serviceID` runs on `date`: its calendar's weekday within its dates, unless an
  /// exception removes the day; or an exception adds it.
  public func runs(_ serviceID: String, on date: ServiceDate) -> Bool {
    if let exception = self.calendarExceptions.last(where: { $0.serviceID == serviceID && $0.date == date }) {
      return exception.added
    }
    guard let calendar = self.calendars.first(where: { $0.serviceID == serviceID }) else { return false }
    return calendar.start <= date && date <= calendar.end && calendar.weekdays[date.weekday - 1]
  }

  /// Every date `serviceID` runs, as days since 1970: its calendar's weekdays within its dates,
  /// then the exceptions (the same rule as ``runs(_:on:)``, for a whole service at once).
  public func serviceDays(of serviceID: String) -> Set<Int> {
    var days: Set<Int> = []
    if let calendar = self.calendars.first(where: { $0.serviceID == serviceID }) {
      for day in calendar.start.daysSinceEpoch ... calendar.end.daysSinceEpoch
      where calendar.weekdays[ServiceDate(daysSinceEpoch: day).weekday - 1] {
        days.insert(day)
      }
    }
    for exception in self.calendarExceptions where exception.serviceID == serviceID {
      if exception.added { days.insert(exception.date.daysSinceEpoch) } else { days.remove(exception.date.daysSinceEpoch) }
    }
    return days
  }

  /// The trips that run on `date`.
  public func trips(on date: ServiceDate) -> [Trip] {
    self.trips.filter { self.runs($0.serviceID, on: date) }
  }
}
