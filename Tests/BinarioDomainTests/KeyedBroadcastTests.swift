import BinarioDomain
import Testing

@Suite("KeyedBroadcast and WakeUps")
struct KeyedBroadcastTests {
  @Test("elements reach the streams open on their key, in order; a stream ends when it is ended or the broadcast closes")
  func byKey() async {
    let broadcast = KeyedBroadcast<String, Int>()
    let (ann, endAnn) = broadcast.subscribe(["ann"])
    let (both, _) = broadcast.subscribe(["ann", "bob"])
    broadcast.publish(1, to: "ann")
    broadcast.publish(2, to: "bob")
    broadcast.publish(3, to: "cat")
    #expect(broadcast.subscriberCount("ann") == 2 && broadcast.subscriberCount("bob") == 1)
    endAnn()
    broadcast.close()
    #expect(await Array(ann) == [1])
    #expect(await Array(both) == [1, 2])
    #expect(broadcast.subscriberCount("ann") == 0)
    // After close, a new stream ends at once.
    #expect(await Array(broadcast.subscribe(["ann"]).stream).isEmpty)
  }

  @Test("a reader `capacity` behind: its stream ends (.end), or it loses the oldest and stays open (.dropOldest)")
  func overflow() async {
    let ending = KeyedBroadcast<String, Int>(capacity: 2, overflow: .end)
    let (ended, _) = ending.subscribe(["k"])
    for value in 1 ... 3 { ending.publish(value, to: "k") }
    #expect(await Array(ended) == [1, 2])
    #expect(ending.subscriberCount("k") == 0)

    let dropping = KeyedBroadcast<String, Int>(capacity: 2, overflow: .dropOldest)
    let (kept, end) = dropping.subscribe(["k"])
    for value in 1 ... 3 { dropping.publish(value, to: "k") }
    #expect(dropping.subscriberCount("k") == 1)
    end()
    #expect(await Array(kept) == [2, 3])
  }

  @Test("a wake-up made before its reader reads is kept, however many were made")
  func wakeUps() async {
    let wakeUps = WakeUps()
    for _ in 1 ... 5 { wakeUps.wake() }
    var iterator = wakeUps.stream.makeAsyncIterator()
    #expect(await iterator.next() != nil)
    wakeUps.wake()
    #expect(await iterator.next() != nil)
  }
}

extension Array where Element: Sendable {
  /// Everything `stream` yields until it ends.
  init(_ stream: AsyncStream<Element>) async {
    var elements: [Element] = []
    for await element in stream { elements.append(element) }
    self = elements
  }
}
