import BinarioProto
import GRPCCore
import Synchronization

/// Each passenger's notification stream, open through the whole run: when it breaks (the
/// gateway or scheduling died) it is opened again after the last cursor it delivered. At the
/// end, once the inboxes stop growing past what the streams brought, every notification in a
/// passenger's inbox must have come down their stream exactly once.
final class NotificationFollowers: Sendable {
  let clients: Clients
  let passengers: [Passenger]
  /// Times each notification id came down the stream, by user id.
  private let received = Mutex<[String: [String: Int]]>([:])
  /// The cursor each stream delivered last, by user id: where it resumes.
  private let cursors = Mutex<[String: String]>([:])
  private let reopened = Mutex(0)
  /// What each delivered notification was, by id: to name one in a broken promise.
  private let seen = Mutex<[String: String]>([:])

  init(clients: Clients, passengers: [Passenger]) {
    self.clients = clients
    self.passengers = passengers
  }

  /// Follows every passenger's stream until cancelled.
  func follow() async {
    await withTaskGroup(of: Void.self) { group in
      for passenger in passengers {
        group.addTask { await self.follow(passenger) }
      }
    }
  }

  private func follow(_ passenger: Passenger) async {
    let user = passenger.person.userID
    while !Task.isCancelled {
      let cursor = cursors.withLock { $0[user] ?? "0" }
      do {
        try await clients.notifications.watchNotifications(.with { $0.cursor = cursor }, metadata: await passenger.person.metadata()) {
          response in
          for try await message in response.messages {
            self.received.withLock { $0[user, default: [:]][message.notification.notificationID, default: 0] += 1 }
            self.cursors.withLock { $0[user] = message.cursor }
            self.seen.withLock {
              $0[message.notification.notificationID] =
                "\(message.notification.kind) \"\(message.notification.title)\" (cursor \(message.cursor), made \(message.notification.createdAt.date))"
            }
          }
        }
      } catch let error as RPCError where error.code == .unauthenticated {
        try? await passenger.person.signIn()
      } catch {}
      if Task.isCancelled { return }
      reopened.withLock { $0 += 1 }
      try? await Task.sleep(for: .milliseconds(200))
    }
  }

  /// Waits (until `settleBy`) for each stream to have brought everything in its passenger's
  /// inbox, then compares.
  func check(settleBy: ContinuousClock.Instant) async throws -> ChaosReport.Section {
    var violations: [String] = []
    var inboxes = 0
    for passenger in passengers {
      let user = passenger.person.userID
      // What came down the stream before the inbox was read must be in it; what the inbox
      // holds must have come down the stream by the time it is read again.
      var inbox: [String] = []
      var before: [String: Int] = [:]
      var got: [String: Int] = [:]
      while true {
        before = received.withLock { $0[user] ?? [:] }
        inbox = try await self.inbox(of: passenger)
        got = received.withLock { $0[user] ?? [:] }
        if inbox.allSatisfy({ got[$0] != nil }) || ContinuousClock.now >= settleBy { break }
        try await Task.sleep(for: .milliseconds(200))
      }
      inboxes += inbox.count
      let missing = inbox.filter { got[$0] == nil }
      let twice = got.filter { $0.value > 1 }
      let unknown = Set(before.keys).subtracting(inbox)
      if !missing.isEmpty {
        violations.append("passenger \(passenger.index)'s stream never brought \(missing.count) of their \(inbox.count) notifications")
      }
      if !twice.isEmpty { violations.append("passenger \(passenger.index)'s stream brought \(twice.count) notifications more than once") }
      if !unknown.isEmpty {
        let named = seen.withLock { seen in unknown.sorted().prefix(3).map { seen[$0] ?? $0 } }
        violations.append(
          "passenger \(passenger.index)'s stream brought \(unknown.count) notifications their inbox does not have: \(named.joined(separator: "; "))"
        )
      }
    }
    let delivered = received.withLock { $0.values.reduce(0) { $0 + $1.values.reduce(0, +) } }
    return ChaosReport.Section(
      name: "followers' streams",
      counts: [
        ("notifications in the inboxes", inboxes), ("delivered by the streams", delivered),
        ("streams reopened at their cursor", reopened.withLock { $0 }),
      ],
      violations: violations
    )
  }

  private func inbox(of passenger: Passenger) async throws -> [String] {
    try await allPages { token in
      let answer = try await clients.notifications.listNotifications(
        .with {
          $0.pageSize = 100
          $0.pageToken = token
        },
        metadata: await passenger.person.metadata()
      )
      return (answer.notifications.map(\.notificationID), answer.nextPageToken)
    }
  }
}
