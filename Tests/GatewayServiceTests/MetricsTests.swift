import BinarioEcho
import GRPCCore
import GatewayService
import Prometheus
import Testing

@Suite("Metrics: calls by upstream and status, durations")
struct MetricsTests {
  @Test func callsAreCountedByUpstreamAndCode() async throws {
    let registry = PrometheusCollectorRegistry()
    try await withUpstream(services: [EchoService()]) { upstream in
      try await withGateway(upstreams: ["echo": upstream.port], metrics: GatewayMetrics(registry: registry)) { gateway in
        try await withGatewayClient(gateway) { client in
          let echo = Binario_Echo_V1_Echo.Client(wrapping: client)
          _ = try await echo.get(.with { $0.text = "a" })
          _ = try await echo.get(.with { $0.text = "b" })
        }
      }
    }
    var buffer: [UInt8] = []
    registry.emit(into: &buffer)
    let text = String(decoding: buffer, as: UTF8.self)
    #expect(text.contains(#"gateway_calls_total{door="binario",upstream="echo",code="OK"} 2"#))
    #expect(text.contains(#"gateway_call_duration_seconds_count{door="binario",upstream="echo"} 2"#))
  }
}
