import AsyncHTTPClient
import ServiceLifecycle

/// Web push's own HTTP client (made when `--web-push-trust-roots` names roots), kept until the
/// process stops and shut down then: AsyncHTTPClient asks it of every client but the shared
/// one, and a debug build traps on a client released without it (the trap's backtrace held a
/// SIGTERM'd scheduling up for seconds).
struct PushClientLifetime: Service {
  let client: HTTPClient

  func run() async throws {
    try? await gracefulShutdown()
    try await self.client.shutdown()
  }
}
