import GRDB

extension SchedulingStore {
  /// The next `limit` scheduled departures from `stationID` at or after `time` on `date`, in
  /// time order: runs of `date` itself, and runs of the day before that are still going after
  /// midnight (their times past 24:00). A run's last stop is not a departure.
  public func departures(from stationID: String, on date: ServiceDate, after time: ServiceTime, limit: Int) throws -> [ScheduledDeparture] {
    try self.pool.read { db in try Self.departures(db, from: stationID, on: date, after: time, limit: limit) }
  }

  /// The next `limit` departures from `stationID` at or after `time` on `date`, going on into
  /// the following service days (up to a week) when that day has fewer, each with its run as
  /// planned and its changes, in one read: what a departures board shows.
  public func departureRuns(
    from stationID: String,
    on date: ServiceDate,
    after time: ServiceTime,
    limit: Int
  ) throws
    -> [(departure: ScheduledDeparture, run: PlannedRun, changes: [RecordedRunChange])]
  {
    let generation = trips.generation
    return try self.pool.read { db in
      var found: [ScheduledDeparture] = []
      var seen = Set<ScheduledDeparture>()
      for offset in 0 ..< 7 {
        let day = date.adding(days: offset)
        for departure in try Self.departures(
          db,
          from: stationID,
          on: day,
          after: offset == 0 ? time : ServiceTime(seconds: 0),
          limit: limit
        )
        where seen.insert(departure).inserted {
          found.append(departure)
        }
        // Enough, unless the day's last ones run past midnight, where the next day's first ones
        // may come before them.
        let nextDayStarts = day.adding(days: 1).daysSinceEpoch * 86_400
        if found.count >= limit, (found.map(\.absoluteDeparture).max() ?? 0) < nextDayStarts { break }
      }
      found.sort { ($0.absoluteDeparture, $0.trainNumber) < ($1.absoluteDeparture, $1.trainNumber) }
      // The departures query has checked that each run exists on its date.
      return try found.prefix(limit).compactMap { departure in
        guard let trip = try self.trip(db, departure.tripID, readAt: generation) else { return nil }
        let run = PlannedRun(
          tripID: departure.tripID,
          serviceDate: departure.serviceDate,
          lineID: trip.lineID,
          trainNumber: trip.trainNumber,
          stops: trip.stops,
          headsign: trip.headsign
        )
        return (departure, run, try Self.changes(db, tripID: departure.tripID, on: departure.serviceDate))
      }
    }
  }

  static func departures(
    _ db: Database,
    from stationID: String,
    on date: ServiceDate,
    after time: ServiceTime,
    limit: Int
  ) throws
    -> [ScheduledDeparture]
  {
    // Two index range scans on (station_id, departure), each stopping after `limit` rows (SQLite
    // sorts only trains leaving at the same time by number): the day's own runs from `time`,
    // and the day before's still going after midnight (their times past 24:00). Merged here.
    let query = try db.cachedStatement(
      sql: """
        SELECT trip.id, trip.train_number, trip.headsign, line.short_name, trip_stop.platform, trip_stop.departure
        FROM trip_stop INDEXED BY trip_stop_by_station
        JOIN trip ON trip.id = trip_stop.trip_id
        JOIN line ON line.id = trip.line_id
        WHERE trip_stop.station_id = ? AND trip_stop.departure >= ?
          AND EXISTS (SELECT 1 FROM service_day WHERE service_day.service_id = trip.service_id AND service_day.day = ?)
          AND NOT EXISTS (SELECT 1 FROM run_exclusion WHERE run_exclusion.trip_id = trip.id AND run_exclusion.day = ?)
          AND trip_stop.sequence < (SELECT MAX(sequence) FROM trip_stop AS last WHERE last.trip_id = trip.id)
        ORDER BY trip_stop.departure, trip.train_number
        LIMIT ?
        """
    )
    var found: [ScheduledDeparture] = []
    for (serviceDate, from) in [(date, time.secondsSinceServiceDayStart), (date.adding(days: -1), time.secondsSinceServiceDayStart + 86_400)] {
      let day = serviceDate.daysSinceEpoch
      // Columns by position (see the SELECT).
      for row in try Row.fetchAll(query, arguments: [stationID, from, day, day, limit]) {
        found.append(
          ScheduledDeparture(
            tripID: row[0],
            serviceDate: serviceDate,
            trainNumber: row[1],
            lineName: row[3],
            headsign: row[2],
            platform: row[4],
            departure: ServiceTime(seconds: row[5])
          )
        )
      }
    }
    found.sort { ($0.absoluteDeparture, $0.trainNumber) < ($1.absoluteDeparture, $1.trainNumber) }
    return Array(found.prefix(limit))
  }
}
