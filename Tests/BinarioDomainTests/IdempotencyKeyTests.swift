import BinarioDomain
import Testing

@Suite("Idempotency keys: one caller's key names one new thing")
struct IdempotencyKeyTests {
  @Test func theSameCallersSameKeyNamesTheSameThing() throws {
    let ada = try #require(try IdempotencyKey(caller: "ada", key: "k-1"))
    let again = try #require(try IdempotencyKey(caller: "ada", key: " k-1 "))
    #expect(ada.id(prefix: "sh") == again.id(prefix: "sh"))
    #expect(ada.id(prefix: "sh").hasPrefix("sh_") && ada.id(prefix: "sh").count == 23)
    // Neither the caller nor the key shows in the id; another caller's same key, or another
    // kind of thing, is another id.
    #expect(!ada.id(prefix: "sh").contains("ada") && !ada.id(prefix: "sh").contains("k-1"))
    #expect(try IdempotencyKey(caller: "bob", key: "k-1")?.id(prefix: "sh") != ada.id(prefix: "sh"))
    #expect(ada.id(prefix: "pl") != ada.id(prefix: "sh"))
  }

  @Test func noKeyMeansARandomIdAndATooLongOneIsRefused() throws {
    let none = try IdempotencyKey(caller: "ada", key: "  ")
    #expect(none == nil)
    #expect(none.id(prefix: "sh") { "random" } == "random")
    #expect(throws: ServiceError.invalid("idempotency_key", "an idempotency key has at most 100 characters")) {
      _ = try IdempotencyKey(caller: "ada", key: String(repeating: "k", count: 101))
    }
  }
}
