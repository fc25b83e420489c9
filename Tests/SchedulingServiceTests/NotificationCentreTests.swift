import BinarioDomain
import BinarioProto
import BinarioStorage
import BinarioWebPush
import Foundation
import Synchronization
import Testing

@testable import SchedulingService

/// The notification centre on a real database, with recording providers and a manual clock.
@Suite("The notification centre: idempotent Notify, streams that resume at a cursor, deliveries by preference")
struct NotificationCentreTests {
  final class Clock: DomainClock {
    let now_ = Mutex(Date(timeIntervalSince1970: 1_790_000_000))
    func now() -> Date { now_.withLock { $0 } }
  }

  /// What the providers were asked to send, in order.
  final class Sent: Sendable {
    let items = Mutex<[String]>([])
    func add(_ item: String) { items.withLock { $0.append(item) } }
    var all: [String] { items.withLock { $0 } }
  }

  struct RecordingPush: PushProvider {
    let sent: Sent
    let goneTokens: Set<String>
    func push(_ notification: UserNotification, to device: PushDevice) async throws -> PushOutcome {
      sent.add("push \(device.token): \(notification.title)")
      return goneTokens.contains(device.token) ? .tokenGone : .sent
    }
  }

  struct RecordingEmail: NotificationEmailProvider {
    let sent: Sent
    func email(_ notification: UserNotification, to address: String) async throws {
      sent.add("email \(address): \(notification.title)")
    }
  }

  struct RecordingText: NotificationTextProvider {
    let sent: Sent
    func text(_ notification: UserNotification, to phone: String) async throws {
      sent.add("sms \(phone): \(notification.title)")
    }
  }

  struct Directory: AccountDirectory {
    func accounts(ids userIDs: [String]) async throws -> [PeerAccount] {
      // Whoever's name starts with "bea" reads Italian.
      userIDs.map {
        PeerAccount(
          userID: $0,
          displayName: $0,
          email: "\($0)@example.com",
          verifiedPhone: "+39333\($0.count)",
          language: $0.hasPrefix("bea") ? .italian : .english
        )
      }
    }
    func accounts(emails: [String]) async throws -> [PeerAccount] { [] }
    func card(userID: String, paymentMethodID: String) async throws -> CardOnFile? { nil }
    func areFriends(_ userID: String, _ otherUserID: String) async throws -> Bool { false }
    func isPendingContact(userID: String, email: String) async throws -> Bool { false }
    func sendFriendRequest(from userID: String, to otherUserID: String) async throws -> Bool { false }
  }

  private func withCentre(
    goneTokens: Set<String> = [],
    _ body: (NotificationCentre, Sent, SchedulingStore) async throws -> Void
  )
    async throws
  {
    let database = try TemporaryDatabase(migrations: SchedulingMigrations.all)
    defer { try? database.remove() }
    let store = SchedulingStore(pool: database.pool)
    let sent = Sent()
    let dispatcher = DeliveryDispatcher(
      store: store,
      directory: Directory(),
      push: RecordingPush(sent: sent, goneTokens: goneTokens),
      email: RecordingEmail(sent: sent),
      text: RecordingText(sent: sent)
    )
    try await body(NotificationCentre(store: store, clock: Clock(), dispatcher: dispatcher), sent, store)
  }

  private func content(_ title: TranslatedText) -> NotificationContent {
    NotificationContent(kind: .ticket, title: title, body: "", data: ["ticket_id": "t1"])
  }

  @Test func notifyIsIdempotentOnItsDedupeKeyAndChecksItsInput() async throws {
    try await withCentre { centre, _, _ in
      let first = try await centre.notify(userIDs: ["ada", "bob", "ada"], content: content("Hi"), dedupeKey: "k1")
      #expect(first == .init(notified: 2, duplicate: false))
      let again = try await centre.notify(userIDs: ["ada", "bob"], content: content("Hi"), dedupeKey: "k1")
      #expect(again == .init(notified: 0, duplicate: true))
      #expect(try centre.inbox(userID: "ada", pageSize: 0, pageToken: "", unreadOnly: false).notifications.count == 1)
      let refused = await #expect(throws: ServiceError.self) {
        _ = try await centre.notify(userIDs: [], content: content(" "), dedupeKey: "")
      }
      guard case .invalid(let problems) = refused else { return }
      #expect(Set(problems.map(\.field)) == ["user_ids", "title", "dedupe_key"])
    }
  }

  @Test func aStreamResumesAfterItsCursorThenGoesLiveWithNothingTwice() async throws {
    try await withCentre { centre, _, _ in
      for index in 1 ... 3 { _ = try await centre.notify(userIDs: ["ada"], content: content("n\(index)"), dedupeKey: "k\(index)") }
      let inbox = try centre.inbox(userID: "ada", pageSize: 0, pageToken: "", unreadOnly: false)
      #expect(inbox.notifications.map(\.content.title) == ["n3", "n2", "n1"])
      let afterFirst = inbox.notifications.last!.cursor
      var stream = try centre.watch(userID: "ada", after: afterFirst).makeAsyncIterator()
      #expect(await stream.next()?.content.title == "n2")
      #expect(await stream.next()?.content.title == "n3")
      _ = try await centre.notify(userIDs: ["ada", "bob"], content: content("n4"), dedupeKey: "k4")
      #expect(await stream.next()?.content.title == "n4")
      #expect(centre.broadcaster.subscriberCount("ada") == 1)
    }
  }

  @Test func aPageOfTheInboxAndMarkingRead() async throws {
    try await withCentre { centre, _, _ in
      for index in 1 ... 5 { _ = try await centre.notify(userIDs: ["ada"], content: content("n\(index)"), dedupeKey: "k\(index)") }
      let page = try centre.inbox(userID: "ada", pageSize: 2, pageToken: "", unreadOnly: false)
      #expect(page.notifications.map(\.content.title) == ["n5", "n4"])
      let next = try centre.inbox(userID: "ada", pageSize: 2, pageToken: page.nextPageToken, unreadOnly: false)
      #expect(next.notifications.map(\.content.title) == ["n3", "n2"])
      let marked = try await centre.markRead(userID: "ada", ids: [page.notifications[0].id], all: false)
      #expect(marked == (1, 4))
      #expect(try await centre.markRead(userID: "ada", ids: [], all: true) == (4, 0))
    }
  }

  @Test func deliveriesFollowPreferencesDevicesAndPushOnlyAndDropGoneTokens() async throws {
    try await withCentre(goneTokens: ["old-phone"]) { centre, sent, store in
      _ = try await centre.registerDevice(userID: "ada", platform: .fcm, token: "pixel", name: "Pixel")
      _ = try await centre.registerDevice(userID: "ada", platform: .apns, token: "old-phone", name: "Old")
      let refused = await #expect(throws: ServiceError.self) {
        _ = try await centre.setPreferences(userID: "bob", DeliveryPreferences(push: false, email: false, sms: false))
      }
      #expect(refused != nil)
      _ = try await centre.setPreferences(userID: "bob", DeliveryPreferences(push: false, email: false, sms: true))
      _ = try await centre.notify(userIDs: ["ada", "bob"], content: content("Delay"), dedupeKey: "d1")
      _ = try await centre.notify(userIDs: ["ada"], content: content("Taxi"), dedupeKey: "t1", pushOnly: true)
      #expect(try await centre.dispatcher.deliverWaiting() == 3)
      #expect(
        sent.all == [
          "push pixel: Delay", "push old-phone: Delay", "email ada@example.com: Delay", "sms +393333: Delay",
          "push pixel: Taxi",
        ]
      )
      #expect(try centre.devices(userID: "ada").map(\.token) == ["pixel"])
      // Delivered once: another pass sends nothing again.
      #expect(try await centre.dispatcher.deliverWaiting() == 0)
      #expect(try store.undeliveredNotifications(limit: 10).isEmpty)
    }
  }

  @Test func dealsCanBeTurnedOffWhileTrainChangesStayAndAreNotEmailedUnlessAsked() async throws {
    try await withCentre { centre, sent, _ in
      for user in ["ada", "bob", "cy"] { _ = try await centre.registerDevice(userID: user, platform: .fcm, token: "\(user)-phone", name: "Phone") }
      // Ada never chose: deals by push only. Bob turned deals off. Cy asked for deals by email.
      _ = try await centre.setPreferences(
        userID: "bob",
        DeliveryPreferences(
          push: true,
          email: true,
          sms: false,
          topics: [.deals: TopicPreference(receive: false, push: false, email: false, sms: false)]
        )
      )
      _ = try await centre.setPreferences(
        userID: "cy",
        DeliveryPreferences(
          push: true,
          email: true,
          sms: false,
          topics: [.deals: TopicPreference(receive: true, push: true, email: true, sms: false)]
        )
      )
      // Setting the channels alone keeps the topics chosen before.
      let kept = try await centre.setPreferences(userID: "bob", DeliveryPreferences(push: true, email: true, sms: false))
      #expect(kept.topic(.deals).receive == false)
      // Train changes cannot be turned off, only their channels chosen.
      let refused = await #expect(throws: ServiceError.self) {
        _ = try await centre.setPreferences(
          userID: "ada",
          DeliveryPreferences(
            push: true,
            email: true,
            sms: false,
            topics: [.trainChanges: TopicPreference(receive: false, push: true, email: true, sms: false)]
          )
        )
      }
      guard case .invalid(let problems) = refused else {
        Issue.record("not refused")
        return
      }
      #expect(problems.map(\.field) == ["preferences.topics"])

      let deal = NotificationContent(kind: .deal, title: "10% off", body: "")
      let outcome = try await centre.notify(userIDs: ["ada", "bob", "cy"], content: deal, dedupeKey: "deal-1")
      #expect(outcome.notified == 2)
      #expect(try centre.inbox(userID: "bob", pageSize: 0, pageToken: "", unreadOnly: false).notifications.isEmpty)
      let delay = NotificationContent(kind: .tripDelay, title: "Late", body: "")
      #expect(try await centre.notify(userIDs: ["ada", "bob", "cy"], content: delay, dedupeKey: "delay-1").notified == 3)
      _ = try await centre.dispatcher.deliverWaiting()
      #expect(
        Set(sent.all) == [
          "push ada-phone: 10% off", "push cy-phone: 10% off", "email cy@example.com: 10% off",
          "push ada-phone: Late", "email ada@example.com: Late", "push bob-phone: Late", "email bob@example.com: Late",
          "push cy-phone: Late", "email cy@example.com: Late",
        ]
      )
    }
  }

  @Test func eachRecipientReadsTheirAccountsLanguageAndAnInboxTheLanguageItIsReadIn() async throws {
    try await withCentre { centre, sent, _ in
      _ = try await centre.registerDevice(userID: "bea", platform: .fcm, token: "bea-phone", name: "Pixel")
      _ = try await centre.registerDevice(userID: "ada", platform: .fcm, token: "ada-phone", name: "Pixel")
      let train: PersonText = "\(PersonText(verbatim: "R12 2345 to Bergamo")) is \(17) minutes late"
      _ = try await centre.notify(userIDs: ["bea", "ada"], content: content(TranslatedText(train)), dedupeKey: "late")
      #expect(try await centre.dispatcher.deliverWaiting() == 2)
      #expect(
        Set(sent.all) == [
          "push bea-phone: R12 2345 to Bergamo ha 17 minuti di ritardo", "email bea@example.com: R12 2345 to Bergamo ha 17 minuti di ritardo",
          "push ada-phone: R12 2345 to Bergamo is 17 minutes late", "email ada@example.com: R12 2345 to Bergamo is 17 minutes late",
        ]
      )
      // The inbox keeps every language: read in Italian, it is Italian; in English, English.
      let kept = try #require(try centre.inbox(userID: "ada", pageSize: 1, pageToken: "", unreadOnly: false).notifications.first)
      #expect(kept.content.title.text(in: .italian) == "R12 2345 to Bergamo ha 17 minuti di ritardo")
      let italian = RequestLanguage.$current.withValue(.italian) { Binario_Scheduling_V1_Notification(kept) }
      #expect(italian.title == "R12 2345 to Bergamo ha 17 minuti di ritardo")
      #expect(Binario_Scheduling_V1_Notification(kept, language: .english).title == "R12 2345 to Bergamo is 17 minutes late")
    }
  }

  @Test func aBrowsersTokenMustBeItsPushSubscription() async throws {
    try await withCentre { centre, _, _ in
      let refused = await #expect(throws: ServiceError.self) {
        _ = try await centre.registerDevice(userID: "ada", platform: .webPush, token: "a-token-from-fcm", name: "Firefox")
      }
      #expect(refused.map { "\($0)" }?.contains("token") == true)
      let key = Base64URL.encode(Data([4] + (1 ... 64).map { UInt8($0) }))
      let subscription = #"{"endpoint":"https://push.example/abc","keys":{"p256dh":"\#(key)","auth":"BTBZMqHH6r4Tts7J_aSIgg"}}"#
      let device = try await centre.registerDevice(userID: "ada", platform: .webPush, token: subscription, name: "Firefox")
      #expect(device.platform == .webPush)
    }
  }

  @Test func aPushPayloadFitsOneRecordShorteningOnlyTheBody() throws {
    let long = UserNotification(
      id: "n1",
      sequence: 1,
      userID: "ada",
      content: NotificationContent(
        kind: .tripDelay,
        title: "R 2615 è in ritardo di 12 minuti",
        body: TranslatedText(english: String(repeating: "Guasto alla linea a Lambrate. ", count: 300)),
        data: ["trip_id": "R2615"]
      ),
      createdAt: Date(timeIntervalSince1970: 0),
      read: false
    )
    let encoded = try WebPushPayload(long).encoded()
    #expect(encoded.count <= WebPushEncryption.maximumPlaintext)
    let decoded = try JSONSerialization.jsonObject(with: encoded) as? [String: Any]
    #expect(decoded?["title"] as? String == "R 2615 è in ritardo di 12 minuti")
    #expect((decoded?["body"] as? String)?.hasSuffix("…") == true)
    #expect((decoded?["data"] as? [String: String])?["trip_id"] == "R2615")
    #expect(WebPushPayload.urgency(of: .tripDelay) == .high)
    #expect(WebPushPayload.urgency(of: .deal) == .low)
  }
}
