// swift-tools-version:6.1
import PackageDescription

/// Benchmarks, one program each: the Binario transport against gRPC over HTTP/2
/// (`transport-bench`), the gateway against calling a service directly and through each front
/// door (`gateway-bench`), and each service's own hot paths (`scheduling-bench`, `ticketing-bench`,
/// `geo-bench`, `dispatch-bench`, `telemetry-bench`), the C device client (`c-client-bench`), and the
/// whole suite's capacity under the five apps' mix (`capacity-bench`, with the load generator).
///
/// A package of its own so that the HTTP/2 baseline (grpc-swift-nio-transport, nio-http2, a second
/// BoringSSL) never enters the main package's build. Run from the repository root, e.g.
/// `swift run -c release --package-path Benchmarks gateway-bench`; `README.md` lists them all.

extension Target.Dependency {
  static let argumentParser = product(name: "ArgumentParser", package: "swift-argument-parser")
  static let asyncHTTPClient = product(name: "AsyncHTTPClient", package: "async-http-client")
  static let grpcCore = product(name: "GRPCCore", package: "grpc-swift-2")
  static let grpcHTTP2Transport = product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport")
  static let grpcProtobuf = product(name: "GRPCProtobuf", package: "grpc-swift-protobuf")
  static let logging = product(name: "Logging", package: "swift-log")
  static let nioConcurrencyHelpers = product(name: "NIOConcurrencyHelpers", package: "swift-nio")
  static let nioCore = product(name: "NIOCore", package: "swift-nio")
  static let nioPosix = product(name: "NIOPosix", package: "swift-nio")
  static let nioSSL = product(name: "NIOSSL", package: "swift-nio-ssl")
  static let swiftProtobuf = product(name: "SwiftProtobuf", package: "swift-protobuf")

  /// A product of the main package.
  static func binario(_ name: String) -> Self { .product(name: name, package: "Binario") }
}

/// The processes a whole-suite benchmark starts (as `RunningSuite` starts them): depending on
/// them builds them beside it, in release.
let theSuite: [Target.Dependency] = ["identity", "scheduling", "ticketing", "geo-offers", "dispatch", "telemetry", "gateway"].map {
  .binario($0)
}
/// What every whole-suite benchmark drives it with.
let suiteClient: [Target.Dependency] = [
  "BenchSupport", .binario("BinarioTestSupport"), .binario("BinarioServiceKit"), .binario("BinarioProto"),
  .binario("BinarioTransport"), .grpcCore, .argumentParser,
]

/// A benchmark that starts the whole suite: `name` in `Sources/<folder>`, with `uses` beside it.
func suiteBenchmark(_ name: String, folder: String, uses: [Target.Dependency] = []) -> Target {
  .executableTarget(name: name, dependencies: suiteClient + theSuite + uses, path: "Sources/\(folder)")
}

let package = Package(
  name: "BinarioBenchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Binario", path: ".."),
    .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.9.2"),
    .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.4.3"),
    .package(url: "https://github.com/grpc/grpc-swift-protobuf.git", from: "2.4.1"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
  ],
  targets: [
    // What every benchmark measures with: getrusage figures, the executor flag.
    .target(name: "BenchSupport", dependencies: [.argumentParser], path: "Sources/BenchSupport"),
    .executableTarget(
      name: "transport-bench",
      dependencies: [
        "BenchSupport", .binario("BinarioServiceKit"), .binario("BinarioTransport"), .binario("BinarioEcho"),
        .binario("BinarioDevCertificates"), .grpcCore, .grpcProtobuf, .grpcHTTP2Transport, .argumentParser,
        .nioConcurrencyHelpers, .nioCore, .nioPosix, .nioSSL,
      ],
      path: "Sources/TransportBench"
    ),
    suiteBenchmark(
      "gateway-bench",
      folder: "GatewayBench",
      uses: [
        .grpcHTTP2Transport, .asyncHTTPClient, .nioConcurrencyHelpers, .nioCore, .nioSSL, .logging, .binario("BinarioEcho"),
        .binario("binario-echo-server"),
      ]
    ),
    suiteBenchmark("scheduling-bench", folder: "SchedulingBench", uses: [.binario("BinarioAuth"), .binario("IdentityService")]),
    suiteBenchmark("ticketing-bench", folder: "TicketingBench"),
    suiteBenchmark("geo-bench", folder: "GeoBench", uses: [.binario("BinarioDomain"), .binario("GeoOffersService")]),
    suiteBenchmark("c-client-bench", folder: "CClientBench"),
    suiteBenchmark(
      "telemetry-bench",
      folder: "TelemetryBench",
      uses: [.binario("BinarioDomain"), .binario("TelemetryService"), .swiftProtobuf]
    ),
    suiteBenchmark("dispatch-bench", folder: "DispatchBench"),
    // The whole suite's capacity under the five apps' mix, per front door (the load generator).
    suiteBenchmark("capacity-bench", folder: "CapacityBench", uses: [.binario("BinarioLoad")]),
    // What clients see while every service restarts in turn under the mix (the load generator).
    suiteBenchmark("restart-bench", folder: "RestartBench", uses: [.binario("BinarioLoad")]),
    suiteBenchmark(
      "events-bench",
      folder: "EventsBench",
      uses: [.binario("BinarioEvents"), .binario("BinarioStorage"), .product(name: "GRDB", package: "GRDB.swift"), .logging, .swiftProtobuf]
    ),
  ]
)

// Every target: Swift 6 language mode, `any` spelled out.
for target in package.targets {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
}
