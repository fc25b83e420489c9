import BinarioProto
import BinarioTransport
import Foundation
import NIOCore
import Synchronization

/// The gateway's own `grpc.health.v1.Health`: the only calls whose messages it decodes.
///
/// With `service` empty the gateway is SERVING when every upstream it routes to reports SERVING.
/// A `service` naming an upstream (`identity`) asks about that upstream; one naming a service
/// the gateway routes (`binario.identity.v1.Identity`) asks its upstream about that service.
/// Anything else is unknown: `NOT_FOUND` for `Check`, `SERVICE_UNKNOWN` for `Watch`.
/// `Watch` sends the status at once and again on each change (re-checked every `watchInterval`)
/// until the client cancels or the gateway shuts down. Once shutdown begins, everything is
/// NOT_SERVING and watches end.
final class GatewayHealth: Sendable {
  typealias ServingStatus = Grpc_Health_V1_HealthCheckResponse.ServingStatus

  static let package = "grpc.health.v1"
  static let checkMethod = "/grpc.health.v1.Health/Check"
  static let watchMethod = "/grpc.health.v1.Health/Watch"

  private let routing: RoutingTable
  private let checker: UpstreamHealthChecker
  private let watchInterval: Duration
  private let state = Mutex<State>(State())

  private struct State {
    var isShutDown = false
    var watches: [ObjectIdentifier: HealthWatch] = [:]
  }

  init(routing: RoutingTable, checker: UpstreamHealthChecker, watchInterval: Duration) {
    self.routing = routing
    self.checker = checker
    self.watchInterval = watchInterval
  }

  static func handles(_ method: String) -> Bool {
    method == Self.checkMethod || method == Self.watchMethod
  }

  /// Answers a health call. Runs on the call's event loop, inside `acceptCall`.
  func accept(_ call: any GatewayClientCall, log: CallLog) {
    let request = NIOLoopBoundBox<Data?>.makeBoxSendingValue(nil, eventLoop: call.eventLoop)
    call.onEvent { event in
      switch event {
      case .message(let data):
        request.value = data
      case .halfClose:
        guard let decoded = try? Grpc_Health_V1_HealthCheckRequest(serializedBytes: request.value ?? Data()) else {
          Self.end(call, log: log, code: WireStatusCode.invalidArgument, message: "the request is not a grpc.health.v1.HealthCheckRequest")
          return
        }
        if call.method == Self.checkMethod {
          self.check(call, service: decoded.service, log: log)
        } else {
          self.watch(call, service: decoded.service, log: log)
        }
      case .cancelled(let reason):
        self.state.withLock { $0.watches.removeValue(forKey: ObjectIdentifier(call)) }?.stop()
        if reason == .deadlineExceeded {
          log.ended(code: WireStatusCode.deadlineExceeded, message: "deadline exceeded")
        } else {
          log.ended(code: WireStatusCode.cancelled, message: "the client cancelled the call")
        }
      }
    }
  }

  /// What a `service` asks about: upstreams and the service names to ask them about, or `nil`
  /// for a name the gateway does not know.
  private func targets(for service: String) -> [(upstream: String, service: String)]? {
    if service.isEmpty {
      return self.routing.upstreamNames.map { ($0, "") }
    }
    if self.routing.upstreams[service] != nil {
      return [(service, "")]
    }
    if let dot = service.lastIndex(of: "."), let upstream = self.routing.upstream(forPackage: String(service[..<dot])) {
      return [(upstream, service)]
    }
    return nil
  }

  /// The current status of `service`; `completion` runs on `loop`.
  private func status(of service: String, on loop: any EventLoop, completion: @escaping @Sendable (ServingStatus) -> Void) {
    if self.state.withLock({ $0.isShutDown }) {
      completion(.notServing)
      return
    }
    guard let targets = self.targets(for: service) else {
      completion(.serviceUnknown)
      return
    }
    self.checker.areServing(targets, on: loop) { completion($0 ? .serving : .notServing) }
  }

  private func check(_ call: any GatewayClientCall, service: String, log: CallLog) {
    self.status(of: service, on: call.eventLoop) { status in
      if status == .serviceUnknown {
        Self.end(call, log: log, code: WireStatusCode.notFound, message: "the gateway knows no service \"\(service)\"")
        return
      }
      Self.sendHeaders(call, log: log)
      Self.send(status, on: call)
      Self.end(call, log: log, code: WireStatusCode.ok, message: "")
    }
  }

  private func watch(_ call: any GatewayClientCall, service: String, log: CallLog) {
    let watch = HealthWatch(call: call, log: log)
    let admitted = self.state.withLock { state -> Bool in
      guard !state.isShutDown else { return false }
      state.watches[ObjectIdentifier(call)] = watch
      return true
    }
    // GRPCCore clients expect initial metadata before the first message.
    Self.sendHeaders(call, log: log)
    guard admitted else {
      Self.send(.notServing, on: call)
      Self.end(call, log: log, code: WireStatusCode.ok, message: "")
      return
    }
    self.poll(watch, service: service, last: nil)
  }

  private func poll(_ watch: HealthWatch, service: String, last: ServingStatus?) {
    let loop = watch.call.eventLoop
    self.status(of: service, on: loop) { status in
      guard watch.isActive else { return }
      if status != last { Self.send(status, on: watch.call) }
      watch.scheduleNext(in: self.watchInterval) {
        self.poll(watch, service: service, last: status)
      }
    }
  }

  /// Marks everything NOT_SERVING and ends every watch (after telling it so).
  func enterShutdown() {
    let watches = self.state.withLock { state -> [HealthWatch] in
      state.isShutDown = true
      defer { state.watches.removeAll() }
      return Array(state.watches.values)
    }
    for watch in watches {
      watch.call.eventLoop.execute {
        guard watch.isActive else { return }
        watch.stop()
        Self.send(.notServing, on: watch.call)
        Self.end(watch.call, log: watch.log, code: WireStatusCode.ok, message: "")
      }
    }
  }

  private static func sendHeaders(_ call: any GatewayClientCall, log: CallLog) {
    call.sendHeaders([.text(GatewayRequestID.key, log.requestID)])
  }

  private static func send(_ status: ServingStatus, on call: any GatewayClientCall) {
    let response = Grpc_Health_V1_HealthCheckResponse.with { $0.status = status }
    if let data = try? response.serializedData() { call.sendMessage(data) }
  }

  private static func end(_ call: any GatewayClientCall, log: CallLog, code: Int32, message: String) {
    call.end(WireEnd(code: code, message: message, trailers: [.text(GatewayRequestID.key, log.requestID)]))
    log.ended(code: code, message: message)
  }
}

/// One open `Watch`: its call and the timer of its next re-check. Used on the call's event loop
/// only, apart from the immutable `call` and `log`.
final class HealthWatch: Sendable {
  let call: any GatewayClientCall
  let log: CallLog
  private let timer: NIOLoopBoundBox<(active: Bool, next: Scheduled<Void>?)>

  init(call: any GatewayClientCall, log: CallLog) {
    self.call = call
    self.log = log
    self.timer = .makeBoxSendingValue((true, nil), eventLoop: call.eventLoop)
  }

  var isActive: Bool { self.timer.value.active }

  func scheduleNext(in delay: Duration, _ body: @escaping @Sendable () -> Void) {
    guard self.timer.value.active else { return }
    self.timer.value.next = self.call.eventLoop.scheduleTask(
      in: TimeAmount.nanoseconds(Int64(delay.components.seconds) * 1_000_000_000 + delay.components.attoseconds / 1_000_000_000)
    ) {
      body()
    }
  }

  func stop() {
    self.timer.value.active = false
    self.timer.value.next?.cancel()
    self.timer.value.next = nil
  }
}
