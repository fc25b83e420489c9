import BinarioDomain
import Foundation
import Testing

@testable import DispatchService

/// Position reports filtered before any zone logic, and a taxi at a zone's border that does not
/// flip between queues.
@Suite("Position filtering")
struct PositionFilterTests {
  @Test("inaccurate, duplicate, out-of-order and implausibly fast fixes are not used; the answer says why")
  func filtered() async throws {
    let test = try TestDispatch()
    try await test.taxi("A", at: TestDispatch.duomo)
    let at = test.clock.now()
    #expect(try await test.move("A", to: TestDispatch.brera, after: 0, accuracy: 250).verdict == .inaccurate)
    let again = try await test.domain.reportPosition(driverUserID: "driver-A", position: TestDispatch.brera, reportedAt: at.addingTimeInterval(-1))
    #expect(again.verdict == .duplicate)
    let old = try await test.domain.reportPosition(
      driverUserID: "driver-A",
      position: TestDispatch.brera,
      reportedAt: at.addingTimeInterval(-30)
    )
    #expect(old.verdict == .outOfOrder)
    // Isola is 4.4 km away: not in 10 seconds.
    #expect(try await test.move("A", to: TestDispatch.isola, after: 10).verdict == .tooFast)
    #expect(try await test.domain.myTaxi(driverUserID: "driver-A").taxi.position == TestDispatch.duomo)
    // 860 m in 60 s is a taxi in town.
    let moved = try await test.move("A", to: TestDispatch.brera, after: 60, accuracy: 12)
    #expect(moved.verdict == .used && moved.taxi.position == TestDispatch.brera)
    // After a long silence the taxi may be anywhere.
    #expect(try await test.move("A", to: TestDispatch.isola, after: 600).verdict == .used)
    await #expect(throws: ServiceError.self) {
      try await test.move("A", to: TestDispatch.isola, after: 10, accuracy: -1)
    }
  }

  @Test("a taxi jittering across a border stays in its zone's queue; clearly inside the next zone, it moves")
  func hysteresis() async throws {
    let test = try TestDispatch()
    let c = try #require(TestDispatch.zones.zone(id: "C"))
    // A point on C's border, and points 20 m and 200 m beyond it (outside C).
    let (a, b) = try #require(
      c.edges.first { edge in
        let middle = GeoPoint(latitude: (edge.0.latitude + edge.1.latitude) / 2, longitude: (edge.0.longitude + edge.1.longitude) / 2)
        let outward = GeoPoint(
          latitude: middle.latitude + (middle.latitude - c.centre.latitude) * 0.05,
          longitude: middle.longitude + (middle.longitude - c.centre.longitude) * 0.05
        )
        return !c.contains(outward) && TestDispatch.zones.zone(containing: outward) != nil
      }
    )
    let middle = GeoPoint(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2)
    func beyond(_ metres: Double) -> GeoPoint {
      let away = GeoPoint(
        latitude: middle.latitude + (middle.latitude - c.centre.latitude) * 0.001,
        longitude: middle.longitude + (middle.longitude - c.centre.longitude) * 0.001
      )
      let step = middle.distance(to: away)
      let k = metres / step * 0.001
      return GeoPoint(
        latitude: middle.latitude + (middle.latitude - c.centre.latitude) * k,
        longitude: middle.longitude + (middle.longitude - c.centre.longitude) * k
      )
    }
    let inside = beyond(-150)
    #expect(c.contains(inside))
    try await test.taxi("A", at: inside)
    #expect(try await test.queue("C") == ["A"])
    let next = try #require(TestDispatch.zones.zone(containing: beyond(200))?.id)
    #expect(next != "C")
    #expect(TestDispatch.zones.zone(containing: beyond(20))?.id == next)
    for _ in 0 ..< 3 {
      #expect(try await test.move("A", to: beyond(20), after: 10).taxi.zoneID == "C")
      #expect(try await test.move("A", to: middle, after: 10).taxi.zoneID == "C")
    }
    #expect(try await test.queue("C") == ["A"])
    #expect(try await test.move("A", to: beyond(200), after: 30).taxi.zoneID == next)
    #expect(try await test.queue(next) == ["A"])
    // Back across by 20 m: it stays in its new zone; well inside C again, it is C's.
    #expect(try await test.move("A", to: beyond(-20), after: 30).taxi.zoneID == next)
    #expect(try await test.move("A", to: inside, after: 30).taxi.zoneID == "C")
    #expect(try await test.queue("C") == ["A"])
  }
}
