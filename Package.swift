// swift-tools-version:6.1
import PackageDescription

/// Binario: the services of an urban-mobility platform and the libraries they share.
///
/// Layout (see `../shared/ARCHITECTURE.md`): `Shared/` holds the libraries every service uses,
/// `Services/` one folder per executable, `Tests/` unit and end-to-end tests, `proto/` the contract.
/// Benchmarks live in their own package under `Benchmarks/` so their heavy extras (HTTP/2 baseline)
/// stay out of this build.

let swiftSettings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
  name: "Binario",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "BinarioProto", targets: ["BinarioProto"]),
    .library(name: "BinarioTransport", targets: ["BinarioTransport"]),
    .library(name: "BinarioStorage", targets: ["BinarioStorage"]),
    .library(name: "BinarioTracing", targets: ["BinarioTracing"]),
    .library(name: "BinarioDomain", targets: ["BinarioDomain"]),
    .library(name: "BinarioServiceKit", targets: ["BinarioServiceKit"]),
    .library(name: "BinarioDevCertificates", targets: ["BinarioDevCertificates"]),
    .library(name: "BinarioEcho", targets: ["BinarioEcho"]),
    .library(name: "BinarioAuth", targets: ["BinarioAuth"]),
    .library(name: "BinarioPayments", targets: ["BinarioPayments"]),
    .library(name: "IdentityService", targets: ["IdentityService"]),
    .executable(name: "identity", targets: ["identity"]),
    .executable(name: "binario-dev-certs", targets: ["binario-dev-certs"]),
    .executable(name: "binario-echo-server", targets: ["binario-echo-server"]),
    .executable(name: "binario-probe", targets: ["binario-probe"]),
    .executable(name: "binario", targets: ["binario"]),
    .library(name: "GatewayService", targets: ["GatewayService"]),
    .library(name: "SchedulingService", targets: ["SchedulingService"]),
    .executable(name: "scheduling", targets: ["scheduling"]),
    .library(name: "TicketingService", targets: ["TicketingService"]),
    .executable(name: "ticketing", targets: ["ticketing"]),
    .library(name: "GeoOffersService", targets: ["GeoOffersService"]),
    .executable(name: "geo-offers", targets: ["geo-offers"]),
    .library(name: "DispatchService", targets: ["DispatchService"]),
    .library(name: "TelemetryService", targets: ["TelemetryService"]),
    .executable(name: "dispatch", targets: ["DispatchMain"]),
    .executable(name: "telemetry", targets: ["TelemetryMain"]),
    .executable(name: "gateway", targets: ["gateway"]),
    .library(name: "BinarioTestSupport", targets: ["BinarioTestSupport"]),
    .library(name: "BinarioFuzzTargets", targets: ["BinarioFuzzTargets"]),
    .executable(name: "binario-chaos", targets: ["binario-chaos"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
    .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
    .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
    .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    .package(url: "https://github.com/grpc/grpc-swift-2.git", from: "2.4.3"),
    .package(url: "https://github.com/grpc/grpc-swift-protobuf.git", from: "2.4.1"),
    .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    // The gateway's standard front doors: gRPC over HTTP/2, and HTTP/JSON.
    .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", from: "2.9.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    // Scheduling reads GTFS feeds from zip archives.
    .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
    // Traces: the API every library speaks, W3C trace context, and the OTLP exporter.
    .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
    .package(url: "https://github.com/swift-otel/swift-w3c-trace-context.git", from: "1.0.0"),
    .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0"),
  ],
  targets: [
    // Swift generated from proto/ (committed; `scripts/generate-proto.sh` regenerates it).
    .target(
      name: "BinarioProto",
      dependencies: [
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
      ],
      path: "Shared/Proto",
      swiftSettings: swiftSettings
    ),
    // The Binario transport: frame layer + GRPCCore client/server transports.
    .target(
      name: "BinarioTransport",
      dependencies: [
        "BinarioProto",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOTLS", package: "swift-nio"),
        // Only for the fuzzers' frame layer without sockets (`Fuzzing/FrameLayerFuzzing.swift`).
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Shared/Transport",
      swiftSettings: swiftSettings
    ),
    // W3C trace context without exporting: ids for every call, its log lines and its onward calls.
    .target(
      name: "BinarioTracing",
      dependencies: [
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Shared/Tracing",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "BinarioStorage",
      dependencies: [
        "BinarioDomain",
        "BinarioTracing",
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Shared/Storage",
      swiftSettings: swiftSettings
    ),
    // What every service's domain layer shares: refusals, input checks, the injected clock.
    .target(name: "BinarioDomain", path: "Shared/Domain", swiftSettings: swiftSettings),
    // The Swift runtime's global-executor hook, by address: NIO's event loops as the executor
    // also when the Swift runtime is linked statically (the container image).
    .target(name: "BinarioConcurrencyHook", path: "Shared/ConcurrencyHook"),
    .target(
      name: "BinarioServiceKit",
      dependencies: [
        "BinarioConcurrencyHook",
        "BinarioDomain",
        "BinarioTracing",
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "OTel", package: "swift-otel"),
        "BinarioProto",
        "BinarioTransport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      path: "Shared/ServiceKit",
      swiftSettings: swiftSettings
    ),
    // Creating a development CA and per-service leaf certificates (used by the dev tool and tests).
    .target(
      name: "BinarioDevCertificates",
      dependencies: [
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ],
      path: "Shared/DevCertificates",
      swiftSettings: swiftSettings
    ),
    // A small echo service (all four call kinds): transport tests and benchmarks use it.
    .target(
      name: "BinarioEcho",
      dependencies: [
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      path: "Shared/Echo",
      swiftSettings: swiftSettings
    ),
    // Access tokens (sign/verify), caller identity from the gateway, and each method's access level.
    .target(
      name: "BinarioAuth",
      dependencies: [
        "BinarioProto",
        "BinarioTransport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      path: "Shared/Auth",
      swiftSettings: swiftSettings
    ),
    // The narrow payment interface (tokenise a card, charge a token) and its recording test
    // implementation: identity, ticketing and dispatch pay through it.
    .target(
      name: "BinarioPayments",
      path: "Shared/Payments",
      swiftSettings: swiftSettings
    ),
    // Identity: accounts, sessions, profiles, roles, friends, emergency contacts, signing keys,
    // password reset, Google sign-in, payment methods, administration.
    .target(
      name: "IdentityService",
      dependencies: [
        "BinarioAuth",
        "BinarioDomain",
        "BinarioPayments",
        "BinarioProto",
        "BinarioStorage",
        "BinarioServiceKit",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Services/Identity/Service",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "identity",
      dependencies: [
        "IdentityService",
        "BinarioAuth",
        "BinarioServiceKit",
        "BinarioStorage",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Services/Identity/Main",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "binario-dev-certs",
      dependencies: [
        "BinarioDevCertificates",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "deploy/dev-certs",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "binario-echo-server",
      dependencies: [
        "BinarioServiceKit", "BinarioEcho",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "deploy/echo-server",
      swiftSettings: swiftSettings
    ),
    // Asks a process's /livez or /readyz: container health checks without curl in the image.
    .executableTarget(
      name: "binario-probe",
      dependencies: [
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      path: "deploy/probe",
      swiftSettings: swiftSettings
    ),
    // The command-line client: every feature, through the gateway.
    .executableTarget(
      name: "binario",
      dependencies: [
        "BinarioProto", "BinarioTransport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "CLI",
      swiftSettings: swiftSettings
    ),
    // The gateway: routes, checks and forwards client calls on the frame layer.
    .target(
      name: "GatewayService",
      dependencies: [
        "BinarioAuth",
        "BinarioServiceKit",
        "BinarioTracing",
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        "BinarioProto",
        "BinarioTransport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HummingbirdTLS", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      path: "Services/Gateway/Service",
      swiftSettings: swiftSettings
    ),
    // Scheduling: the timetable (GTFS), live changes, the notification centre, itineraries.
    .target(
      name: "SchedulingService",
      dependencies: [
        "BinarioAuth",
        "BinarioDomain",
        "BinarioProto",
        "BinarioServiceKit",
        "BinarioStorage",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      path: "Services/Scheduling/Service",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "scheduling",
      dependencies: [
        "SchedulingService",
        "BinarioAuth",
        "BinarioServiceKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Services/Scheduling/Main",
      swiftSettings: swiftSettings
    ),
    // Ticketing: fares, tickets, the wallet, validation, subscriptions shared among friends.
    .target(
      name: "TicketingService",
      dependencies: [
        "BinarioAuth",
        "BinarioDomain",
        "BinarioPayments",
        "BinarioProto",
        "BinarioServiceKit",
        "BinarioStorage",
        "BinarioTransport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      path: "Services/Ticketing/Service",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "ticketing",
      dependencies: [
        "TicketingService",
        "BinarioAuth",
        "BinarioDomain",
        "BinarioServiceKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Services/Ticketing/Main",
      swiftSettings: swiftSettings
    ),
    // Geo-offers: deals, route offers and places near a position, nearest stations, welcomes.
    .target(
      name: "GeoOffersService",
      dependencies: [
        "BinarioAuth",
        "BinarioDomain",
        "BinarioProto",
        "BinarioServiceKit",
        "BinarioStorage",
        "BinarioTransport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      path: "Services/GeoOffers/Service",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "geo-offers",
      dependencies: [
        "GeoOffersService",
        "BinarioAuth",
        "BinarioDomain",
        "BinarioServiceKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Services/GeoOffers/Main",
      swiftSettings: swiftSettings
    ),
    // Dispatch: taxis on demand (zones' fair queues, rides, drivers' offers, the control room).
    .target(
      name: "DispatchService",
      dependencies: [
        "BinarioAuth",
        "BinarioDomain",
        "BinarioPayments",
        "BinarioProto",
        "BinarioServiceKit",
        "BinarioStorage",
        "BinarioTransport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      path: "Services/Dispatch/Service",
      swiftSettings: swiftSettings
    ),
    // Not named "dispatch" like its product: SwiftPM names an executable's entry point
    // `<module>_main`, and `dispatch_main` is libdispatch's, which a static link refuses twice.
    .executableTarget(
      name: "DispatchMain",
      dependencies: [
        "DispatchService",
        "BinarioAuth",
        "BinarioDomain",
        "BinarioServiceKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Services/Dispatch/Main",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "TelemetryService",
      dependencies: [
        "BinarioAuth",
        "BinarioDomain",
        "BinarioProto",
        "BinarioServiceKit",
        "BinarioStorage",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      path: "Services/Telemetry/Service",
      swiftSettings: swiftSettings
    ),
    // The executable is `telemetry`; its target has another name, as dispatch's does.
    .executableTarget(
      name: "TelemetryMain",
      dependencies: [
        "TelemetryService",
        "BinarioAuth",
        "BinarioDomain",
        "BinarioServiceKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Services/Telemetry/Main",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "gateway",
      dependencies: [
        "GatewayService",
        "BinarioServiceKit",
        "BinarioTransport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Services/Gateway/Main",
      swiftSettings: swiftSettings
    ),

    // Tests
    // What tests and gateway-bench share: this package's executables as real processes, up to
    // the whole suite (`RunningSuite`), and the identity client's account helpers.
    // Every parser of a stranger's bytes as a function of bytes: what `Fuzz/`'s libFuzzer program
    // drives and `FuzzRegressionTests` replays.
    .target(
      name: "BinarioFuzzTargets",
      dependencies: ["BinarioTransport", "GatewayService", "SchedulingService", "TelemetryService"],
      path: "Fuzz/Targets",
      swiftSettings: swiftSettings
    ),
    // The chaos run: the suite under load while processes are killed (`scripts/chaos.sh`, and
    // `ChaosTests` in the test command).
    .target(
      name: "BinarioChaos",
      dependencies: [
        "BinarioProto", "BinarioTransport", "BinarioTestSupport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      path: "Chaos/Run",
      swiftSettings: swiftSettings
    ),
    .executableTarget(
      name: "binario-chaos",
      dependencies: ["BinarioChaos", "BinarioTestSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
      path: "Chaos/Command",
      swiftSettings: swiftSettings
    ),
    .target(
      name: "BinarioTestSupport",
      dependencies: [
        "BinarioDevCertificates", "BinarioProto", "BinarioTransport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ],
      path: "Tests/Support",
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "FuzzRegressionTests",
      dependencies: ["BinarioFuzzTargets"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BinarioTransportTests",
      dependencies: [
        "BinarioTransport", "BinarioProto", "BinarioEcho", "BinarioDevCertificates", "BinarioTestSupport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "NIOTLS", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BinarioStorageTests",
      dependencies: [
        "BinarioStorage", "BinarioTracing", .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BinarioServiceKitTests",
      dependencies: [
        "BinarioServiceKit", "BinarioProto", "BinarioTransport", "BinarioDevCertificates", "BinarioTracing",
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCInProcessTransport", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BinarioAuthTests",
      dependencies: [
        "BinarioAuth", "BinarioProto", "BinarioTransport",
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCInProcessTransport", package: "grpc-swift-2"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BinarioPaymentsTests",
      dependencies: ["BinarioPayments"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "IdentityServiceTests",
      dependencies: [
        "IdentityService", "BinarioAuth", "BinarioDomain", "BinarioProto", "BinarioStorage", "BinarioServiceKit", "BinarioTransport",
        "BinarioDevCertificates", "BinarioPayments", "BinarioTestSupport",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "_CryptoExtras", package: "swift-crypto"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCInProcessTransport", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GatewayServiceTests",
      dependencies: [
        "GatewayService", "BinarioTransport", "BinarioProto", "BinarioEcho", "BinarioDevCertificates",
        "BinarioServiceKit", "BinarioAuth", "BinarioStorage", "IdentityService",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "Hummingbird", package: "hummingbird"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "SchedulingServiceTests",
      dependencies: [
        "SchedulingService", "BinarioStorage",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TicketingServiceTests",
      dependencies: ["TicketingService", "BinarioDomain", "BinarioPayments", "BinarioStorage"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "GeoOffersServiceTests",
      dependencies: ["GeoOffersService", "BinarioDomain", "BinarioStorage", .product(name: "GRDB", package: "GRDB.swift")],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "TelemetryServiceTests",
      dependencies: ["TelemetryService", "BinarioDomain", "BinarioStorage", "BinarioTestSupport"],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "DispatchServiceTests",
      dependencies: [
        "DispatchService", "BinarioDomain", "BinarioPayments", "BinarioStorage",
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: swiftSettings
    ),
    .testTarget(
      name: "BinarioDevCertificatesTests",
      dependencies: [
        "BinarioDevCertificates",
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swiftSettings
    ),
    // The suite as real processes (identity, gateway) on loopback with real TLS and SQLite files.
    .testTarget(
      name: "EndToEndTests",
      dependencies: [
        "BinarioProto", "BinarioTransport", "BinarioDevCertificates", "BinarioTestSupport", "BinarioServiceKit", "BinarioChaos",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "GRPCCore", package: "grpc-swift-2"),
        .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        .product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOTLS", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
      ],
      swiftSettings: swiftSettings
    ),
  ]
)
