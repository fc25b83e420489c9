import BinarioEcho
import Foundation
import GRPCCore

/// Unary `Get` calls through a `GRPCClient`, whichever transport it runs on: `concurrency` tasks,
/// each making one call after another.
struct GRPCEchoLoad<Transport: ClientTransport>: EchoLoad {
  let client: Binario_Echo_V1_Echo.Client<Transport>
  let request: Binario_Echo_V1_EchoRequest

  init(client: Binario_Echo_V1_Echo.Client<Transport>, payload: Data) {
    self.client = client
    self.request = .with { $0.payload = payload }
  }

  func run(concurrency: Int, for duration: Duration) async throws -> LoadResult {
    let clock = ContinuousClock()
    let started = clock.now
    let deadline = started + duration
    let latencies = try await withThrowingTaskGroup(of: [UInt64].self) { group in
      for _ in 0 ..< concurrency {
        group.addTask {
          var latencies: [UInt64] = []
          latencies.reserveCapacity(4096)
          repeat {
            let callStarted = clock.now
            _ = try await self.client.get(self.request)
            latencies.append(callStarted.duration(to: clock.now).nanoseconds)
          } while clock.now < deadline
          return latencies
        }
      }
      var all: [UInt64] = []
      for try await some in group { all.append(contentsOf: some) }
      return all
    }
    return LoadResult(latencies: latencies, elapsed: started.duration(to: clock.now))
  }
}
