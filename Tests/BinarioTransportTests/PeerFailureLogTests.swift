import BinarioTransport
import Testing

@Suite("How loudly a failure to reach a peer is logged")
struct PeerFailureLogTests {
  @Test("A peer that never answered: its first refusals are information, later ones warnings")
  func starting() {
    for attempt in 1 ... PeerFailureLog.expectedAtStart {
      #expect(PeerFailureLog.level(attempt: attempt, peerAnsweredBefore: false) == .info)
    }
    #expect(PeerFailureLog.level(attempt: PeerFailureLog.expectedAtStart + 1, peerAnsweredBefore: false) == .warning)
  }

  @Test("A peer that answered before and stopped: a warning from the first refusal")
  func gone() {
    #expect(PeerFailureLog.level(attempt: 1, peerAnsweredBefore: true) == .warning)
  }
}
