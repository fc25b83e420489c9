import GRDB

extension SchedulingStore {
  public func stations() throws -> [Station] {
    try self.pool.read { db in
      try Row.fetchAll(db.cachedStatement(sql: "SELECT id, code, name, latitude, longitude FROM station ORDER BY name")).map {
        Station(id: $0["id"], code: $0["code"], name: $0["name"], latitude: $0["latitude"], longitude: $0["longitude"])
      }
    }
  }
}
