import BinarioTransport
import Foundation
import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import GatewayService

@Suite("A front door's call, bridged to the forwarder's event-loop contract")
struct BridgedClientCallTests {
  private func makeCall(timeout: Duration? = nil, on loop: NIOAsyncTestingEventLoop) -> BridgedClientCall {
    BridgedClientCall(
      door: .grpc,
      method: "/binario.identity.v1.Identity/GetMe",
      metadata: [],
      timeout: timeout,
      peer: BinarioCallPeer(identity: nil, remoteAddress: "ipv4:127.0.0.1:5000", localAddress: ""),
      eventLoop: loop,
      maximumPayloadSize: 1024
    )
  }

  /// Records the events a handler receives.
  final class Events: Sendable {
    let seen = Mutex<[String]>([])
    var all: [String] { self.seen.withLock { $0 } }

    func record(_ event: ServerCallEvent) {
      let name: String
      switch event {
      case .message(let data): name = "message(\(data.count))"
      case .halfClose: name = "halfClose"
      case .cancelled(let reason): name = "cancelled(\(reason))"
      }
      self.seen.withLock { $0.append(name) }
    }
  }

  @Test func eventsBeforeTheHandlerAreReplayedInOrder() async throws {
    let loop = NIOAsyncTestingEventLoop()
    let call = self.makeCall(on: loop)
    call.deliver(.message(Data([1, 2, 3])))
    call.deliver(.halfClose)
    await loop.run()
    let events = Events()
    try await loop.submit { call.onEvent { events.record($0) } }.get()
    #expect(events.all == ["message(3)", "halfClose"])
    try await loop.shutdownGracefully()
  }

  @Test func theAnswerArrivesInOrderAndNothingAfterTheEnd() async throws {
    let loop = NIOAsyncTestingEventLoop()
    let call = self.makeCall(on: loop)
    call.sendHeaders([.text("x-request-id", "r1")])
    #expect(call.sendMessage(Data(count: 10)))
    #expect(!call.sendMessage(Data(count: 2048)))  // over the limit: refused, nothing sent
    call.end(WireEnd(code: WireStatusCode.ok))
    call.end(WireEnd(code: WireStatusCode.internalError))
    var parts: [String] = []
    // One batch: everything sent in one turn arrives together.
    let batch = await call.nextResponses()
    #expect(batch.count == 3)
    #expect(await call.nextResponses().isEmpty)
    for part in batch {
      switch part {
      case .headers(let headers): parts.append("headers(\(headers.firstText("x-request-id") ?? ""))")
      case .message(let data): parts.append("message(\(data.count))")
      case .end(let end): parts.append("end(\(end.statusCode))")
      }
    }
    #expect(parts == ["headers(r1)", "message(10)", "end(0)"])
    try await loop.shutdownGracefully()
  }

  @Test func theDeadlineAnswersDeadlineExceededAndTellsTheHandler() async throws {
    let loop = NIOAsyncTestingEventLoop()
    let call = self.makeCall(timeout: .milliseconds(500), on: loop)
    let events = Events()
    try await loop.submit { call.onEvent { events.record($0) } }.get()
    await loop.advanceTime(by: .milliseconds(499))
    #expect(events.all.isEmpty)
    await loop.advanceTime(by: .milliseconds(1))
    #expect(events.all == ["cancelled(deadlineExceeded)"])
    var ends: [Int32] = []
    for case .end(let end) in await call.nextResponses() { ends.append(end.statusCode) }
    #expect(ends == [WireStatusCode.deadlineExceeded])
    try await loop.shutdownGracefully()
  }

  @Test func aClientThatGoesAwayCancelsAndFinishesTheAnswer() async throws {
    let loop = NIOAsyncTestingEventLoop()
    let call = self.makeCall(timeout: .seconds(30), on: loop)
    let events = Events()
    try await loop.submit { call.onEvent { events.record($0) } }.get()
    call.clientCancelled()
    await loop.run()
    #expect(events.all == ["cancelled(cancelledByPeer)"])
    #expect(await call.nextResponses().isEmpty)
    call.deliver(.halfClose)  // after the end: dropped
    await loop.run()
    #expect(events.all == ["cancelled(cancelledByPeer)"])
    try await loop.shutdownGracefully()
  }

  /// What a relay holds: the handler captures it, and it holds the call.
  final class Relay: Sendable {
    let call: BridgedClientCall
    init(_ call: BridgedClientCall) { self.call = call }
  }

  @Test func theEndReleasesTheHandlerAndWhatItHolds() async throws {
    let loop = NIOAsyncTestingEventLoop()
    weak var released: Relay?
    do {
      let call = self.makeCall(on: loop)
      let relay = Relay(call)
      released = relay
      try await loop.submit { call.onEvent { _ in _ = relay.call } }.get()
      call.end(WireEnd(code: WireStatusCode.ok))
    }
    #expect(released == nil, "the call and its relay keep each other alive after the end")
    try await loop.shutdownGracefully()
  }

  @Test func aWaitingFrontDoorWakesForTheAnswer() async throws {
    let loop = NIOAsyncTestingEventLoop()
    let call = self.makeCall(on: loop)
    async let first = call.nextResponses()
    try await loop.submit { call.sendHeaders([]) }.get()
    let headers = await first
    #expect(headers.count == 1)
    async let rest = call.nextResponses()
    try await loop.submit { call.end(WireEnd(code: WireStatusCode.ok)) }.get()
    guard case .end? = await rest.first else {
      Issue.record("the end did not wake the front door")
      return
    }
    try await loop.shutdownGracefully()
  }

  @Test func writabilityFollowsWhatTheClientHasTaken() async throws {
    let loop = NIOAsyncTestingEventLoop()
    let call = BridgedClientCall(
      door: .grpc,
      method: "/m.v1.S/M",
      metadata: [],
      timeout: nil,
      peer: BinarioCallPeer(identity: nil, remoteAddress: "", localAddress: ""),
      eventLoop: loop,
      maximumPayloadSize: BridgedClientCall.highWaterBytes
    )
    #expect(call.isWritable)
    call.sendMessage(Data(count: BridgedClientCall.highWaterBytes))
    #expect(!call.isWritable)
    async let writable: Void = call.waitUntilWritable()
    call.responseWritten(bytes: BridgedClientCall.highWaterBytes)
    await writable
    #expect(call.isWritable)
    try await loop.shutdownGracefully()
  }

  @Test func pausedReadsWaitUntilResumed() async throws {
    let loop = NIOAsyncTestingEventLoop()
    let call = self.makeCall(on: loop)
    try await loop.submit { call.setReadPaused(true) }.get()
    let resumed = Mutex(false)
    async let waited: Void = {
      await call.waitWhileReadsPaused()
      resumed.withLock { $0 = true }
    }()
    #expect(!resumed.withLock { $0 })
    try await loop.submit { call.setReadPaused(false) }.get()
    await waited
    #expect(resumed.withLock { $0 })
    try await loop.shutdownGracefully()
  }
}
