/// One kind of traffic in a chaos run: people writing through the gateway while processes die,
/// and afterwards, with every process up again, the check that what the suite acknowledged is
/// there exactly once.
protocol ChaosLoad: Sendable {
  var name: String { get }
  /// Writes until `stop`; a write still unanswered then is retried until acknowledged (or the
  /// run's settle limit).
  func run(until stop: ContinuousClock.Instant) async throws
  /// What was written, acknowledged and found, and every promise broken.
  func check() async throws -> ChaosReport.Section
}

extension ChaosLoad {
  /// The pause between one person's writes: a steady load that leaves the two cores to the
  /// processes restarting.
  static var pace: Duration { .milliseconds(100) }

  /// Runs `body` for every passenger at once; returns when all are done.
  func eachAtOnce(_ passengers: [Passenger], _ body: @escaping @Sendable (Passenger) async throws -> Void) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
      for passenger in passengers { group.addTask { try await body(passenger) } }
      try await group.waitForAll()
    }
  }
}

/// Every item of a paged list, `page(token)` answering one page's items and the next token
/// (empty after the last page).
func allPages<Item>(_ page: (String) async throws -> ([Item], String)) async throws -> [Item] {
  var items: [Item] = []
  var token = ""
  repeat {
    let (more, next) = try await page(token)
    items += more
    token = next
  } while !token.isEmpty
  return items
}
