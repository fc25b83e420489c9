import Foundation
import Testing

@testable import BinarioServiceKit

@Suite("Request ids")
struct RequestIDTests {
  @Test func generatedIDsAreDistinctLowercaseVersion4UUIDs() throws {
    let ids = (0 ..< 1_000).map { _ in RequestID.generate() }
    #expect(Set(ids).count == ids.count)
    for id in ids.prefix(20) {
      let uuid = try #require(UUID(uuidString: id))
      #expect(id == id.lowercased())
      #expect(uuid.uuid.6 >> 4 == 4, "version 4: \(id)")
      #expect(uuid.uuid.8 >> 6 == 0b10, "RFC 4122 variant: \(id)")
    }
  }

  @Test func theTextIsFoundationsUUIDStringInLowercase() {
    for _ in 0 ..< 100 {
      let uuid = UUID()
      let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
      #expect(RequestID.uuidText(bytes) == uuid.uuidString.lowercased())
    }
  }

  @Test func idsFromManyThreadsAtOnceAreDistinct() async {
    let ids = await withTaskGroup(of: [String].self) { group in
      for _ in 0 ..< 8 {
        group.addTask { (0 ..< 500).map { _ in RequestID.generate() } }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    #expect(Set(ids).count == 4_000)
  }
}
