import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import Testing

@testable import BinarioServiceKit

@Suite("Metrics HTTP endpoint")
struct MetricsHTTPServerTests {
  @Test("GET /metrics serves the registry in Prometheus text format; other paths are 404; it closes cleanly", .timeLimit(.minutes(1)))
  func servesMetrics() async throws {
    let registry = PrometheusCollectorRegistry()
    registry.makeCounter(
      descriptor: MetricNameDescriptor(metricName: "rides", unitName: "total", helpText: "Rides booked."),
      labels: [("zone", "milano")]
    ).increment(by: Int64(3))
    let server = MetricsHTTPServer(host: "127.0.0.1", port: 0, registry: registry, logger: Logger(label: "test"))
    let group = ServiceGroup(services: [server], logger: Logger(label: "test"))

    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      let address = try await server.listeningAddress()
      #expect(address.port != 0)

      let metrics = try await exchangeHTTP("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n", with: address)
      #expect(metrics.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(metrics.lowercased().contains("content-type: text/plain; version=0.0.4"))
      #expect(metrics.contains("\n# HELP rides_total Rides booked.\n# TYPE rides_total counter\n"))
      #expect(metrics.contains(#"rides_total{zone="milano"} 3"#))

      let other = try await exchangeHTTP("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", with: address)
      #expect(other.hasPrefix("HTTP/1.1 404 Not Found\r\n"))

      let post = try await exchangeHTTP("POST /metrics HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n", with: address)
      #expect(post.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))

      await group.triggerGracefulShutdown()
      try await tasks.next()  // run() returned: the endpoint has closed

      await #expect(throws: (any Error).self) {
        _ = try await exchangeHTTP("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n", with: address)
      }
    }
  }

  @Test("/livez is 200; /readyz is 200 while every check passes, else 503 naming the failing checks", .timeLimit(.minutes(1)))
  func probes() async throws {
    let readiness = Readiness()
    let listener = ListenerState()
    readiness.add("server", listener: listener)
    let server = MetricsHTTPServer(
      host: "127.0.0.1",
      port: 0,
      registry: PrometheusCollectorRegistry(),
      readiness: readiness,
      logger: Logger(label: "test")
    )
    let group = ServiceGroup(services: [server], logger: Logger(label: "test"))

    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      let address = try await server.listeningAddress()
      func get(_ path: String, method: String = "GET") async throws -> String {
        try await exchangeHTTP("\(method) \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n", with: address)
      }

      let live = try await get("/livez")
      #expect(live.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(live.hasSuffix("\r\n\r\nok\n"))

      let starting = try await get("/readyz")
      #expect(starting.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
      #expect(starting.hasSuffix("\r\n\r\nnot ready\nserver: starting\n"))
      #expect(starting.lowercased().contains("cache-control: no-store"))

      listener.advance(to: .listening)
      let ready = try await get("/readyz")
      #expect(ready.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(ready.hasSuffix("\r\n\r\nready\n"))
      let head = try await get("/readyz?verbose", method: "HEAD")
      #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
      #expect(head.hasSuffix("\r\n\r\n"))  // no body

      readiness.add("cache") { "still loading" }
      let twoFailing = try await get("/readyz")
      #expect(twoFailing.hasPrefix("HTTP/1.1 200 OK\r\n") == false)
      #expect(twoFailing.hasSuffix("not ready\ncache: still loading\n"))

      listener.advance(to: .draining)
      listener.advance(to: .listening)  // phases only move forward
      #expect(listener.phase == .draining)
      let draining = try await get("/readyz")
      #expect(draining.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
      #expect(draining.hasSuffix("not ready\nserver: draining (graceful shutdown)\ncache: still loading\n"))

      let post = try await exchangeHTTP("POST /livez HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n", with: address)
      #expect(post.hasPrefix("HTTP/1.1 405 Method Not Allowed\r\n"))

      await group.triggerGracefulShutdown()
      try await tasks.next()
    }
  }

  @Test("A scrape says whether the process is ready and how much room its data directory's file system has", .timeLimit(.minutes(1)))
  func scrapeTimeGauges() async throws {
    let readiness = Readiness()
    let listener = ListenerState()
    readiness.add("server", listener: listener)
    let server = MetricsHTTPServer(
      host: "127.0.0.1",
      port: 0,
      registry: PrometheusCollectorRegistry(),
      readiness: readiness,
      dataDirectory: FileManager.default.temporaryDirectory.path,
      logger: Logger(label: "test")
    )
    let group = ServiceGroup(services: [server], logger: Logger(label: "test"))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      let address = try await server.listeningAddress()
      func gauge(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix("\(name) ") }.flatMap { Double($0.split(separator: " ")[1]) }
      }

      let starting = try await exchangeHTTP("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n", with: address)
      #expect(gauge("binario_ready", in: starting) == 0)
      listener.advance(to: .listening)
      let ready = try await exchangeHTTP("GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n", with: address)
      #expect(gauge("binario_ready", in: ready) == 1)

      var stats = statvfs()
      #expect(statvfs(FileManager.default.temporaryDirectory.path, &stats) == 0)
      let size = try #require(gauge("binario_data_volume_size_bytes", in: ready))
      let available = try #require(gauge("binario_data_volume_available_bytes", in: ready))
      #expect(size == Double(stats.f_blocks) * Double(stats.f_frsize))
      #expect(available > 0 && available <= size)

      await group.triggerGracefulShutdown()
      try await tasks.next()
    }
  }

  @Test("a port already in use is an error naming the metrics settings", .timeLimit(.minutes(1)))
  func bindFailure() async throws {
    let first = MetricsHTTPServer(host: "127.0.0.1", port: 0, registry: PrometheusCollectorRegistry(), logger: Logger(label: "test"))
    let group = ServiceGroup(services: [first], logger: Logger(label: "test"))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      let taken = try #require(try await first.listeningAddress().port)

      let second = MetricsHTTPServer(host: "127.0.0.1", port: taken, registry: PrometheusCollectorRegistry(), logger: Logger(label: "test"))
      let error = await #expect(throws: MetricsServerError.self) { try await second.run() }
      #expect(error?.description.contains("metricsPort") == true)

      await group.triggerGracefulShutdown()
      try await tasks.next()
    }
  }
}
