// swift-tools-version:6.1
import PackageDescription

/// Benchmarks: the Binario transport against gRPC over HTTP/2 (`transport-bench`), the gateway
/// against calling identity directly, through each of its front doors (`gateway-bench`),
/// scheduling's notification fan-out and departures board (`scheduling-bench`), and ticketing's
/// purchases and wallet (`ticketing-bench`), and geo-offers' radius queries, nearest stations
/// and location reports over a million deals (`geo-bench`), and dispatch's offers to a thousand
/// taxis reporting their positions (`dispatch-bench`).
///
/// A package of its own so that the HTTP/2 baseline (grpc-swift-nio-transport, nio-http2, a second
/// BoringSSL) never enters the main package's build. Run from the repository root:
///
///     swift run -c release --package-path Benchmarks transport-bench
///     swift run -c release --package-path Benchmarks gateway-bench
///     swift run -c release --package-path Benchmarks scheduling-bench
///     swift run -c release --package-path Benchmarks ticketing-bench
///     swift run -c release --package-path Benchmarks geo-bench
///     swift run -c release --package-path Benchmarks dispatch-bench
///     swift run -c release --package-path Benchmarks telemetry-bench
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
  ],
  targets: [
    // What both benchmarks measure with: getrusage figures, the executor flag.
    .target(
      name: "BenchSupport",
      dependencies: [
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/BenchSupport",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
      ]
    ),
    .executableTarget(
      name: "transport-bench",
      dependencies: [
        "BenchSupport",
        .product(name: "BinarioServiceKit", package: "Binario"),
        .product(name: "BinarioTransport", package: "Binario"),
        .product(name: "BinarioEcho", package: "Binario"),
        .product(name: "BinarioDevCertificates", package: "Binario"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      path: "Sources/TransportBench",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
      ]
    ),
    .executableTarget(
      name: "gateway-bench",
      dependencies: [
        "BenchSupport",
        // The executables under test: depending on them builds them beside gateway-bench,
        // which starts them as processes (the whole suite, as RunningSuite starts it).
        .product(name: "identity", package: "Binario"),
        .product(name: "scheduling", package: "Binario"),
        .product(name: "ticketing", package: "Binario"),
        .product(name: "geo-offers", package: "Binario"),
        .product(name: "dispatch", package: "Binario"),
        .product(name: "telemetry", package: "Binario"),
        .product(name: "gateway", package: "Binario"),
        .product(name: "BinarioTestSupport", package: "Binario"),
        .product(name: "BinarioServiceKit", package: "Binario"),
        .product(name: "BinarioProto", package: "Binario"),
        .product(name: "BinarioTransport", package: "Binario"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Sources/GatewayBench",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
      ]
    ),
    .executableTarget(
      name: "scheduling-bench",
      dependencies: [
        "BenchSupport",
        // The executables under test, built beside scheduling-bench, which starts them (the
        // whole suite, as RunningSuite starts it).
        .product(name: "identity", package: "Binario"),
        .product(name: "scheduling", package: "Binario"),
        .product(name: "ticketing", package: "Binario"),
        .product(name: "geo-offers", package: "Binario"),
        .product(name: "dispatch", package: "Binario"),
        .product(name: "telemetry", package: "Binario"),
        .product(name: "gateway", package: "Binario"),
        .product(name: "BinarioTestSupport", package: "Binario"),
        .product(name: "BinarioServiceKit", package: "Binario"),
        .product(name: "BinarioProto", package: "Binario"),
        .product(name: "BinarioTransport", package: "Binario"),
        .product(name: "BinarioAuth", package: "Binario"),
        .product(name: "IdentityService", package: "Binario"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/SchedulingBench",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
      ]
    ),
    .executableTarget(
      name: "ticketing-bench",
      dependencies: [
        "BenchSupport",
        // The executables under test, built beside ticketing-bench, which starts them (the
        // whole suite, as RunningSuite starts it).
        .product(name: "identity", package: "Binario"),
        .product(name: "scheduling", package: "Binario"),
        .product(name: "ticketing", package: "Binario"),
        .product(name: "geo-offers", package: "Binario"),
        .product(name: "dispatch", package: "Binario"),
        .product(name: "telemetry", package: "Binario"),
        .product(name: "gateway", package: "Binario"),
        .product(name: "BinarioTestSupport", package: "Binario"),
        .product(name: "BinarioServiceKit", package: "Binario"),
        .product(name: "BinarioProto", package: "Binario"),
        .product(name: "BinarioTransport", package: "Binario"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/TicketingBench",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
      ]
    ),
    .executableTarget(
      name: "geo-bench",
      dependencies: [
        "BenchSupport",
        // The executables under test, built beside geo-bench, which starts them.
        .product(name: "identity", package: "Binario"),
        .product(name: "scheduling", package: "Binario"),
        .product(name: "ticketing", package: "Binario"),
        .product(name: "geo-offers", package: "Binario"),
        .product(name: "dispatch", package: "Binario"),
        .product(name: "telemetry", package: "Binario"),
        .product(name: "gateway", package: "Binario"),
        .product(name: "BinarioTestSupport", package: "Binario"),
        .product(name: "BinarioServiceKit", package: "Binario"),
        .product(name: "BinarioDomain", package: "Binario"),
        .product(name: "BinarioProto", package: "Binario"),
        .product(name: "BinarioTransport", package: "Binario"),
        .product(name: "GeoOffersService", package: "Binario"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/GeoBench",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
      ]
    ),
    .executableTarget(
      name: "c-client-bench",
      dependencies: [
        "BenchSupport",
        // The executables under test, built beside c-client-bench, which starts them.
        .product(name: "identity", package: "Binario"),
        .product(name: "scheduling", package: "Binario"),
        .product(name: "ticketing", package: "Binario"),
        .product(name: "geo-offers", package: "Binario"),
        .product(name: "dispatch", package: "Binario"),
        .product(name: "telemetry", package: "Binario"),
        .product(name: "gateway", package: "Binario"),
        .product(name: "BinarioTestSupport", package: "Binario"),
        .product(name: "BinarioServiceKit", package: "Binario"),
        .product(name: "BinarioProto", package: "Binario"),
        .product(name: "BinarioTransport", package: "Binario"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/CClientBench",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
      ]
    ),
    .executableTarget(
      name: "telemetry-bench",
      dependencies: [
        "BenchSupport",
        // The executables under test, built beside telemetry-bench, which starts them.
        .product(name: "identity", package: "Binario"),
        .product(name: "scheduling", package: "Binario"),
        .product(name: "ticketing", package: "Binario"),
        .product(name: "geo-offers", package: "Binario"),
        .product(name: "dispatch", package: "Binario"),
        .product(name: "telemetry", package: "Binario"),
        .product(name: "gateway", package: "Binario"),
        .product(name: "BinarioTestSupport", package: "Binario"),
        .product(name: "BinarioServiceKit", package: "Binario"),
        .product(name: "BinarioDomain", package: "Binario"),
        .product(name: "BinarioProto", package: "Binario"),
        .product(name: "BinarioTransport", package: "Binario"),
        .product(name: "TelemetryService", package: "Binario"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/TelemetryBench",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
      ]
    ),
      .executableTarget(
      name: "dispatch-bench",
      dependencies: [
        "BenchSupport",
        // The executables under test, built beside dispatch-bench, which starts them.
        .product(name: "identity", package: "Binario"),
        .product(name: "scheduling", package: "Binario"),
        .product(name: "ticketing", package: "Binario"),
        .product(name: "geo-offers", package: "Binario"),
        .product(name: "dispatch", package: "Binario"),
        .product(name: "telemetry", package: "Binario"),
        .product(name: "gateway", package: "Binario"),
        .product(name: "BinarioTestSupport", package: "Binario"),
        .product(name: "BinarioServiceKit", package: "Binario"),
        .product(name: "BinarioProto", package: "Binario"),
        .product(name: "BinarioTransport", package: "Binario"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Sources/DispatchBench",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
      ]
    ),
  ]
)
