import BinarioDomain
import Foundation
import Testing

@testable import DispatchService

@Suite("Taxi zones")
struct ZoneMapTests {
  static let demo: ZoneMap = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Services/Dispatch/DemoData/zones.json")
    return try! ZoneMap.decode(Data(contentsOf: url))
  }()

  @Test("the demo divides Milan in nine zones; a taxi's zone follows from its position")
  func demoZones() throws {
    let map = Self.demo
    #expect(map.zones.count == 9)
    #expect(map.zone(containing: GeoPoint(latitude: 45.4642, longitude: 9.1900))?.id == "C")  // the Duomo
    #expect(map.zone(containing: GeoPoint(latitude: 45.5000, longitude: 9.1000))?.id == "NW")  // Bovisa
    #expect(map.zone(containing: GeoPoint(latitude: 45.4335, longitude: 9.2387))?.id == "SE")  // Rogoredo
    #expect(map.zone(containing: GeoPoint(latitude: 45.6270, longitude: 8.7112)) == nil)  // Malpensa: outside
    // On a shared border, the first zone listed that holds it.
    #expect(map.zone(containing: GeoPoint(latitude: 45.49, longitude: 9.17))?.id == "N")
  }

  @Test("neighbours are the zones that touch, nearest first; corners count")
  func neighbours() {
    let map = Self.demo
    #expect(
      map.neighbours["C"]
        == ["E", "N", "S", "W", "NE", "NW", "SE", "SW"].sorted { a, b in
          let centre = map.zone(id: "C")!.centre
          return (centre.distance(to: map.zone(id: a)!.centre), a) < (centre.distance(to: map.zone(id: b)!.centre), b)
        }
    )
    #expect(Set(map.neighbours["NW"] ?? []) == ["N", "W", "C"])
    #expect(map.neighbours["NW"]?.last == "C")
    #expect(!(map.neighbours["SE"] ?? []).contains("NW"))
  }

  @Test("a concave zone: inside, outside and in its notch")
  func concave() throws {
    // An L: the square 0..2 × 0..2 without its top-right quarter.
    let l = Zone(
      id: "L",
      name: "L",
      polygon: [(0, 0), (0, 2), (1, 2), (1, 1), (2, 1), (2, 0)].map { GeoPoint(latitude: $0.0, longitude: $0.1) }
    )
    #expect(l.contains(GeoPoint(latitude: 0.5, longitude: 1.5)))
    #expect(l.contains(GeoPoint(latitude: 1.5, longitude: 0.5)))
    #expect(!l.contains(GeoPoint(latitude: 1.5, longitude: 1.5)))
    #expect(l.contains(GeoPoint(latitude: 1, longitude: 1.5)))  // on its border
    #expect(!l.contains(GeoPoint(latitude: -0.1, longitude: 1)))
  }

  @Test("a malformed zone file names each zone at fault")
  func malformed() {
    let bad = Data(
      #"{"zones": [{"id": "A", "name": "a", "polygon": [[45, 9], [45, 9.1]]}, {"id": "A", "name": "b", "polygon": [[95, 9], [45, 9.1], [45.1, 9]]}]}"#
        .utf8
    )
    #expect(throws: ServiceError.self) { _ = try ZoneMap.decode(bad) }
    do {
      _ = try ZoneMap.decode(bad)
    } catch let error as ServiceError {
      guard case .invalid(let problems) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(problems.map(\.field) == ["zones[0].polygon", "zones[1].id", "zones[1].polygon[0].latitude"])
    } catch {
      Issue.record("\(error)")
    }
    #expect(throws: ServiceError.self) { _ = try ZoneMap.decode(Data(#"{"zones": []}"#.utf8)) }
    #expect(throws: ServiceError.self) { _ = try ZoneMap.decode(Data(#"{"zones": [{"id": "A", "name": "a", "polygon": [[45]]}]}"#.utf8)) }
  }
}
