import BinarioDomain
import BinarioStorage
import Foundation
import Testing

@testable import GeoOffersService

@Suite("Great-circle distances and the R*Tree")
struct GeoIndexTests {
  @Test("distances across the antimeridian and over the poles")
  func distances() {
    // A degree of longitude on the equator, either side of 180°.
    let east = GeoPoint(latitude: 0, longitude: 179.5)
    let west = GeoPoint(latitude: 0, longitude: -179.5)
    #expect(abs(east.distance(to: west) - 111_195) < 2)
    // Across the North Pole: 89° on opposite meridians is 2° of arc.
    let a = GeoPoint(latitude: 89, longitude: 0)
    let b = GeoPoint(latitude: 89, longitude: 180)
    #expect(abs(a.distance(to: b) - 2 * 111_195) < 5)
    // Milano Centrale to Bergamo, as the crow flies: 43.13 km (by the flat-Earth approximation,
    // good at this scale: 22.75 km north, 36.64 km east).
    let centrale = GeoPoint(latitude: 45.48606, longitude: 9.20448)
    let bergamo = GeoPoint(latitude: 45.69060, longitude: 9.67550)
    #expect(abs(centrale.distance(to: bergamo) - 43_130) < 50)
    #expect(abs(a.distance(to: GeoPoint(latitude: -89, longitude: 0)) - GeoPoint.maximumDistanceMetres * 178 / 180) < 5)
  }

  @Test("bounding boxes split at the antimeridian and open up at the poles")
  func boxes() {
    let split = GeoPoint(latitude: 10, longitude: 179.99).boundingBoxes(radiusMetres: 5_000)
    #expect(split.count == 2 && split[0].maxLongitude == 180 && split[1].minLongitude == -180)
    let polar = GeoPoint(latitude: 89.99, longitude: 45).boundingBoxes(radiusMetres: 5_000)
    #expect(polar == [GeoBox(minLatitude: polar[0].minLatitude, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)])
    #expect(GeoPoint(latitude: 0, longitude: 0).boundingBoxes(radiusMetres: 21_000_000) == [.world])
  }

  /// The property: for random points and random circles (anywhere, the antimeridian and the
  /// poles weighted in), the tree's answer is exactly a brute-force scan's, in the same order.
  @Test("radius queries through the R*Tree match a brute-force scan", arguments: [1 as UInt64, 2, 3])
  func matchesBruteForce(seed: UInt64) async throws {
    var random = SeededGenerator(state: seed)
    let database = try TemporaryDatabase(migrations: GeoOffersMigrations.all)
    defer { try? database.remove() }
    let store = GeoOffersStore(pool: database.pool)

    func randomPoint() -> GeoPoint {
      switch Int.random(in: 0 ..< 4, using: &random) {
      case 0:  // near the antimeridian
        return GeoPoint(
          latitude: .random(in: -60 ... 60, using: &random),
          longitude: Bool.random(using: &random) ? .random(in: 179 ... 180, using: &random) : .random(in: -180 ... -179, using: &random)
        )
      case 1:  // near a pole
        return GeoPoint(
          latitude: (Bool.random(using: &random) ? 1 : -1) * .random(in: 88 ... 90, using: &random),
          longitude: .random(in: -180 ... 180, using: &random)
        )
      case 2:  // Lombardy, densely
        return GeoPoint(latitude: .random(in: 45.3 ... 45.7, using: &random), longitude: .random(in: 9.0 ... 9.4, using: &random))
      default:  // anywhere
        return GeoPoint(latitude: .random(in: -90 ... 90, using: &random), longitude: .random(in: -180 ... 180, using: &random))
      }
    }

    var places: [Place] = []
    for index in 0 ..< 1_500 {
      let place = Place(id: "p\(index)", name: "Place \(index)", description: "", category: .other, position: randomPoint())
      places.append(place)
      try await store.insertPlace(place)
    }
    for _ in 0 ..< 300 {
      let centre = randomPoint()
      let radius = [50.0, 1_000, 30_000, 200_000, 2_000_000][Int.random(in: 0 ..< 5, using: &random)]
      let indexed = try await store.places(within: radius, of: centre, category: nil, limit: .max)
      let scanned =
        places
        .map { ($0, centre.distance(to: $0.position)) }
        .filter { $0.1 <= radius }
        .sorted { ($0.1, Int($0.0.id.dropFirst())!) < ($1.1, Int($1.0.id.dropFirst())!) }
      #expect(
        indexed.map(\.item.id) == scanned.map(\.0.id),
        "centre \(centre), radius \(radius) m: \(indexed.count) from the tree, \(scanned.count) by scanning"
      )
    }
  }

  @Test("the k nearest stations, also when the nearest is on the other side of the Earth")
  func nearestStations() async throws {
    let test = try await TestGeoOffers()
    let nearest = try await test.domain.nearestStations(latitude: 45.4860, longitude: 9.2000, count: 2)
    #expect(nearest.map(\.station.id) == ["MI_CENTRALE", "MI_GARIBALDI"])
    #expect(nearest[0].walkingMinutes == Int((nearest[0].distanceMetres / (5_000.0 / 60)).rounded(.up)))
    #expect(
      nearest[0].directionsURL
        == "https://www.google.com/maps/dir/?api=1&origin=45.486000%2C9.200000&destination=45.486060%2C9.204480&travelmode=walking"
    )
    let antipode = try await test.domain.nearestStations(latitude: -45.5, longitude: -170.8, count: 0)
    #expect(antipode.count == 3 && antipode[0].distanceMetres > 19_000_000)
  }
}
