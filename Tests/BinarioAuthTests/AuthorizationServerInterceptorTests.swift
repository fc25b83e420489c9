import BinarioAuth
import BinarioProto
import BinarioTransport
import GRPCCore
import Synchronization
import Testing

@Suite("Authorization interceptor")
struct AuthorizationServerInterceptorTests {
  typealias M = Binario_Identity_V1_Identity.Method
  let interceptor = AuthorizationServerInterceptor(policy: .identity)

  func userMetadata(roles: String = "passenger") -> Metadata {
    var metadata: Metadata = [:]
    metadata.addString("user-1", forKey: "x-user-id")
    metadata.addString(roles, forKey: "x-roles")
    metadata.addString("s-1", forKey: "x-session-id")
    return metadata
  }

  /// Runs the interceptor on a call from `peer`, returning the caller the handler saw, or the
  /// refusal's code.
  func call(
    _ method: MethodDescriptor,
    metadata: Metadata,
    peer: String?
  ) async throws -> Outcome {
    try await withServerContextRPCCancellationHandle { handle in
      var context = ServerContext(descriptor: method, remotePeer: "test", localPeer: "test", cancellation: handle)
      context.transportSpecific = BinarioServerContext(peerIdentity: peer.map(BinarioPeerIdentity.init(uri:)))
      let request = StreamingServerRequest<Int>(metadata: metadata, messages: RPCAsyncSequence(wrapping: AsyncThrowingStream { $0.finish() }))
      do {
        let response: StreamingServerResponse<CallerIdentity?> = try await interceptor.intercept(request: request, context: context) { _, _ in
          let seen = CallerIdentity.current
          return StreamingServerResponse(single: ServerResponse(message: seen))
        }
        return .admitted(try await firstMessage(of: response))
      } catch let error as RPCError {
        return .refused(error.code)
      }
    }
  }

  func firstMessage(of response: StreamingServerResponse<CallerIdentity?>) async throws -> CallerIdentity? {
    let contents = try response.accepted.get()
    let collector = Collector()
    _ = try await contents.producer(RPCWriter(wrapping: collector))
    return collector.values.first ?? nil
  }

  @Test("a signed-in method called through the gateway sees the caller")
  func signedInThroughGateway() async throws {
    let result = try await call(M.GetMe.descriptor, metadata: userMetadata(), peer: WorkloadIdentity.gateway)
    #expect(result == .admitted(CallerIdentity(userID: "user-1", roles: [.passenger], sessionID: "s-1")))
  }

  @Test("another service's certificate cannot act as a user")
  func otherServiceCannotActAsUser() async throws {
    let result = try await call(M.GetMe.descriptor, metadata: userMetadata(roles: "admin"), peer: "spiffe://binario/dispatch")
    #expect(result == .refused(.unauthenticated))
    let admin = try await call(M.GrantRole.descriptor, metadata: userMetadata(roles: "admin"), peer: "spiffe://binario/dispatch")
    #expect(admin == .refused(.unauthenticated))
  }

  @Test("a public method from anyone runs with no caller unless the gateway names one")
  func publicMethod() async throws {
    #expect(try await call(M.Login.descriptor, metadata: userMetadata(), peer: "spiffe://binario/dispatch") == .admitted(nil))
    #expect(try await call(M.Login.descriptor, metadata: [:], peer: nil) == .admitted(nil))
    let viaGateway = try await call(M.SendEmergencyAlert.descriptor, metadata: userMetadata(), peer: WorkloadIdentity.gateway)
    #expect(viaGateway == .admitted(CallerIdentity(userID: "user-1", roles: [.passenger], sessionID: "s-1")))
  }

  @Test("an admin method refuses a passenger and a driver, admits an admin")
  func adminMethod() async throws {
    let gateway = WorkloadIdentity.gateway
    #expect(try await call(M.CreateDriver.descriptor, metadata: userMetadata(roles: "passenger"), peer: gateway) == .refused(.permissionDenied))
    #expect(try await call(M.CreateDriver.descriptor, metadata: userMetadata(roles: "driver"), peer: gateway) == .refused(.permissionDenied))
    #expect(try await call(M.CreateDriver.descriptor, metadata: [:], peer: gateway) == .refused(.unauthenticated))
    let admitted = try await call(M.CreateDriver.descriptor, metadata: userMetadata(roles: "passenger,admin"), peer: gateway)
    #expect(admitted == .admitted(CallerIdentity(userID: "user-1", roles: [.passenger, .admin], sessionID: "s-1")))
  }

  @Test("an internal method only for the peers allowed to call it")
  func internalMethod() async throws {
    #expect(try await call(M.WatchRevocations.descriptor, metadata: [:], peer: WorkloadIdentity.gateway) == .admitted(nil))
    #expect(
      try await call(M.WatchRevocations.descriptor, metadata: userMetadata(roles: "admin"), peer: "spiffe://binario/dispatch")
        == .refused(.permissionDenied)
    )
    #expect(try await call(M.WatchRevocations.descriptor, metadata: [:], peer: nil) == .refused(.permissionDenied))
  }

  @Test("a device method runs only with a device token forwarded by the gateway, and sees it; no other method sees one")
  func deviceMethod() async throws {
    typealias T = Binario_Telemetry_V1_Telemetry.Method
    let interceptor = AuthorizationServerInterceptor(policy: .telemetry)
    /// The device token the handler saw (`.some(nil)`: none), or `.none` when refused.
    func seen(_ method: MethodDescriptor, _ metadata: Metadata, peer: String?) async throws -> String?? {
      try await withServerContextRPCCancellationHandle { handle in
        var context = ServerContext(descriptor: method, remotePeer: "test", localPeer: "test", cancellation: handle)
        context.transportSpecific = BinarioServerContext(peerIdentity: peer.map(BinarioPeerIdentity.init(uri:)))
        let request = StreamingServerRequest<Int>(metadata: metadata, messages: RPCAsyncSequence(wrapping: AsyncThrowingStream { $0.finish() }))
        let response: StreamingServerResponse<String?>
        do {
          response = try await interceptor.intercept(request: request, context: context) { _, _ in
            StreamingServerResponse(single: ServerResponse(message: DeviceCredential.current))
          }
        } catch {
          return .none
        }
        let collector = TokenCollector()
        _ = try await response.accepted.get().producer(RPCWriter(wrapping: collector))
        return .some(collector.values.first ?? nil)
      }
    }
    var device: Metadata = [:]
    device.addString("bdt_x", forKey: DeviceCredential.metadataKey)
    #expect(try await seen(T.UploadReadings.descriptor, device, peer: WorkloadIdentity.gateway) == .some("bdt_x"))
    #expect(try await seen(T.UploadReadings.descriptor, device, peer: "spiffe://binario/dispatch") == .none, "only the gateway forwards tokens")
    #expect(try await seen(T.UploadReadings.descriptor, userMetadata(), peer: WorkloadIdentity.gateway) == .none, "a user is not a device")
    var both = userMetadata()
    both.addString("bdt_x", forKey: DeviceCredential.metadataKey)
    #expect(try await seen(T.ListDevices.descriptor, both, peer: WorkloadIdentity.gateway) == .some(nil), "other methods never see a token")
  }

  @Test("a method without a declared level is refused")
  func undeclaredMethod() async throws {
    let unknown = MethodDescriptor(fullyQualifiedService: "binario.x.v1.X", method: "Y", type: .unary)
    #expect(try await call(unknown, metadata: userMetadata(roles: "admin"), peer: WorkloadIdentity.gateway) == .refused(.permissionDenied))
  }
}

/// What the interceptor did with a call.
enum Outcome: Equatable {
  /// Let it through; the handler saw this caller.
  case admitted(CallerIdentity?)
  case refused(RPCError.Code)
}

/// Collects what a response producer writes.
final class Collector: RPCWriterProtocol, Sendable {
  private let storage = Mutex<[CallerIdentity?]>([])
  var values: [CallerIdentity?] { storage.withLock { $0 } }
  func write(_ element: CallerIdentity?) async throws { storage.withLock { $0.append(element) } }
  func write(contentsOf elements: some Sequence<CallerIdentity?>) async throws {
    storage.withLock { $0.append(contentsOf: elements) }
  }
}

final class TokenCollector: RPCWriterProtocol, Sendable {
  private let storage = Mutex<[String?]>([])
  var values: [String?] { storage.withLock { $0 } }
  func write(_ element: String?) async throws { storage.withLock { $0.append(element) } }
  func write(contentsOf elements: some Sequence<String?>) async throws { storage.withLock { $0.append(contentsOf: elements) } }
}
