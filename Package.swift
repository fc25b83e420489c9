// swift-tools-version:6.1
import PackageDescription

/// Binario: the services of an urban-mobility platform and the libraries they share.
///
/// Read it as four lists: the shared libraries (`Shared/`), the services (`Services/`, one
/// `service(...)` line each), the tools, and the test targets. `docs/architecture.md` explains the
/// layout; `docs/adding-a-service.md` lists everything a new service needs besides its line here.
/// Benchmarks and fuzzers are packages of their own (`Benchmarks/`, `Fuzz/`), built differently.

// MARK: - Dependencies, named once

let packageDependencies: [Package.Dependency] = [
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
  // Named for the gRPC door's own stream handler (it comes with the transport above).
  .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
  .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
  .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
  // Tests write GTFS zip archives with it (scheduling reads them with its own reader and zlib).
  .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
  // Traces: the API every library speaks and W3C trace context (the OTLP exporter is Shared/ServiceKit's).
  .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
  .package(url: "https://github.com/swift-otel/swift-w3c-trace-context.git", from: "1.0.0"),
  // The load generator's latency percentiles.
  .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
]

extension Target.Dependency {
  static let argumentParser = product(name: "ArgumentParser", package: "swift-argument-parser")
  static let asyncHTTPClient = product(name: "AsyncHTTPClient", package: "async-http-client")
  static let crypto = product(name: "Crypto", package: "swift-crypto")
  static let cryptoExtras = product(name: "_CryptoExtras", package: "swift-crypto")
  static let grdb = product(name: "GRDB", package: "GRDB.swift")
  static let grpcCore = product(name: "GRPCCore", package: "grpc-swift-2")
  static let grpcInProcessTransport = product(name: "GRPCInProcessTransport", package: "grpc-swift-2")
  static let grpcHTTP2Transport = product(name: "GRPCNIOTransportHTTP2Posix", package: "grpc-swift-nio-transport")
  static let grpcProtobuf = product(name: "GRPCProtobuf", package: "grpc-swift-protobuf")
  static let httpTypes = product(name: "HTTPTypes", package: "swift-http-types")
  static let histogram = product(name: "Histogram", package: "hdrhistogram-swift")
  static let hummingbird = product(name: "Hummingbird", package: "hummingbird")
  static let hummingbirdCore = product(name: "HummingbirdCore", package: "hummingbird")
  static let hummingbirdTLS = product(name: "HummingbirdTLS", package: "hummingbird")
  static let inMemoryTracing = product(name: "InMemoryTracing", package: "swift-distributed-tracing")
  static let jwtKit = product(name: "JWTKit", package: "jwt-kit")
  static let logging = product(name: "Logging", package: "swift-log")
  static let metrics = product(name: "Metrics", package: "swift-metrics")
  static let nioConcurrencyHelpers = product(name: "NIOConcurrencyHelpers", package: "swift-nio")
  static let nioCore = product(name: "NIOCore", package: "swift-nio")
  static let nioEmbedded = product(name: "NIOEmbedded", package: "swift-nio")
  static let nioHTTP1 = product(name: "NIOHTTP1", package: "swift-nio")
  static let nioHTTP2 = product(name: "NIOHTTP2", package: "swift-nio-http2")
  static let nioHPACK = product(name: "NIOHPACK", package: "swift-nio-http2")
  static let nioPosix = product(name: "NIOPosix", package: "swift-nio")
  static let nioSSL = product(name: "NIOSSL", package: "swift-nio-ssl")
  static let nioTLS = product(name: "NIOTLS", package: "swift-nio")
  static let prometheus = product(name: "Prometheus", package: "swift-prometheus")
  static let serviceLifecycle = product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
  static let unixSignals = product(name: "UnixSignals", package: "swift-service-lifecycle")
  static let swiftASN1 = product(name: "SwiftASN1", package: "swift-asn1")
  static let swiftProtobuf = product(name: "SwiftProtobuf", package: "swift-protobuf")
  static let tracing = product(name: "Tracing", package: "swift-distributed-tracing")
  static let w3cTraceContext = product(name: "W3CTraceContext", package: "swift-w3c-trace-context")
  static let x509 = product(name: "X509", package: "swift-certificates")
  static let zipFoundation = product(name: "ZIPFoundation", package: "ZIPFoundation")
}

// MARK: - Shared libraries (Shared/)

let sharedLibraries: [Target] = [
  // Swift generated from proto/ (committed; `scripts/generate-proto.sh` regenerates it).
  .target(name: "BinarioProto", dependencies: [.swiftProtobuf, .grpcCore, .grpcProtobuf], path: "Shared/Proto"),
  // The Binario transport: frame layer + GRPCCore client/server transports. NIOEmbedded only for
  // the fuzzers' frame layer without sockets (`Fuzzing/FrameLayerFuzzing.swift`).
  .target(
    name: "BinarioTransport",
    dependencies: [
      "BinarioDomain", "BinarioProto", .grpcCore, .swiftProtobuf, .nioCore, .nioPosix, .nioSSL, .nioTLS, .nioEmbedded, .x509, .logging,
    ],
    path: "Shared/Transport"
  ),
  // W3C trace context without exporting: ids for every call, its log lines and its onward calls.
  .target(name: "BinarioTracing", dependencies: [.tracing, .w3cTraceContext, .logging], path: "Shared/Tracing"),
  // What every service's domain layer shares: refusals, input checks, the injected clock.
  .target(name: "BinarioDomain", dependencies: [.crypto], path: "Shared/Domain"),
  .target(name: "BinarioStorage", dependencies: ["BinarioDomain", "BinarioTracing", .tracing, .grdb, .logging, .nioPosix], path: "Shared/Storage"),
  // The Swift runtime's global-executor hook, by address: NIO's event loops as the executor
  // also when the Swift runtime is linked statically (the container image). C, not Swift.
  .target(name: "BinarioConcurrencyHook", path: "Shared/ConcurrencyHook"),
  // Bootstrapping a service: configuration, logging, metrics, traces, health, shutdown, errors.
  .target(
    name: "BinarioServiceKit",
    dependencies: [
      "BinarioAuth", "BinarioConcurrencyHook", "BinarioDomain", "BinarioStorage", "BinarioTracing", "BinarioProto", "BinarioTransport",
      .grdb, .tracing, .w3cTraceContext, .asyncHTTPClient, .grpcHTTP2Transport, .swiftProtobuf, .grpcCore, .grpcProtobuf, .argumentParser, .logging,
      .metrics, .prometheus,
      .serviceLifecycle, .unixSignals, .nioCore, .nioPosix, .nioConcurrencyHelpers, .nioHTTP1,
    ],
    path: "Shared/ServiceKit"
  ),
  // Integration events between services: a producer's log, its stream, a consumer's cursor.
  .target(
    name: "BinarioEvents",
    dependencies: [
      "BinarioAuth", "BinarioDomain", "BinarioProto", "BinarioServiceKit", "BinarioStorage", "BinarioTransport", .grdb, .grpcCore,
      .swiftProtobuf, .logging, .metrics, .serviceLifecycle,
    ],
    path: "Shared/Events"
  ),
  // The development CA and per-process certificates (the dev tool and tests make them).
  .target(name: "BinarioDevCertificates", dependencies: [.x509, .crypto, .swiftASN1], path: "Shared/DevCertificates"),
  // A small echo service (all four call kinds): transport tests and benchmarks use it.
  .target(name: "BinarioEcho", dependencies: [.grpcCore, .grpcProtobuf, .swiftProtobuf], path: "Shared/Echo"),
  // Access tokens (sign/verify), caller identity from the gateway, and each method's access level.
  .target(
    name: "BinarioAuth",
    dependencies: ["BinarioDomain", "BinarioProto", "BinarioTransport", .grpcCore, .jwtKit, .crypto],
    path: "Shared/Auth"
  ),
  // Web Push's message encryption (RFC 8291) and the server's VAPID identity (RFC 8292).
  .target(name: "BinarioWebPush", dependencies: ["BinarioDomain", .crypto, .jwtKit], path: "Shared/WebPush"),
  // The narrow payment interface and its recording development provider.
  .target(name: "BinarioPayments", dependencies: ["BinarioDomain"], path: "Shared/Payments"),
  // The system's zlib (zlib1g-dev): scheduling inflates zip entries with it.
  .systemLibrary(name: "BinarioZlib", path: "Shared/Zlib"),
  // Deflate with zlib, raw (zip entries) or gzip (HTTP): scheduling's GTFS feed, the gateway's files.
  .target(name: "BinarioCompression", dependencies: ["BinarioZlib"], path: "Shared/Compression"),
]

// MARK: - Services (Services/)

/// A service's four targets: the library `<name>Service` (`Services/<name>/Service`: handlers,
/// domain, store, peers), the library `<name>Process` (`Services/<name>/Process`: the command line
/// and the wiring), the executable `<name>Main` (`Services/<name>/Main`, one line that runs the
/// command; its product is the process's name) and the unit tests `<name>ServiceTests`. The
/// command is a library so that the container image links every process's from one shared
/// library (`deploy/image`). Every service library gets what all of them use; `uses` adds its own.
struct Service {
  let name: String
  let product: String
  let uses: [Target.Dependency]
  let processUses: [Target.Dependency]
  let testUses: [Target.Dependency]

  static let everyServiceUses: [Target.Dependency] = [
    "BinarioAuth", "BinarioDomain", "BinarioEvents", "BinarioProto", "BinarioServiceKit", "BinarioStorage", "BinarioTransport",
    .grpcCore, .grdb, .logging, .swiftProtobuf,
  ]

  var targets: [Target] {
    [
      .target(name: "\(name)Service", dependencies: Self.everyServiceUses + uses, path: "Services/\(name)/Service"),
      .target(
        name: "\(name)Process",
        dependencies: [
          .target(name: "\(name)Service"), "BinarioAuth", "BinarioDomain", "BinarioEvents", "BinarioServiceKit", .argumentParser, .logging,
        ]
          + processUses,
        path: "Services/\(name)/Process"
      ),
      .executableTarget(name: "\(name)Main", dependencies: [.target(name: "\(name)Process")], path: "Services/\(name)/Main"),
      .testTarget(
        name: "\(name)ServiceTests",
        dependencies: [.target(name: "\(name)Service"), "BinarioTestSupport"] + Self.everyServiceUses + testUses
      ),
    ]
  }

  var products: [Product] {
    [
      .library(name: "\(name)Service", targets: ["\(name)Service"]), .library(name: "\(name)Process", targets: ["\(name)Process"]),
      .executable(name: product, targets: ["\(name)Main"]),
    ]
  }
}

func service(
  _ name: String,
  product: String,
  uses: [Target.Dependency] = [],
  processUses: [Target.Dependency] = [],
  testUses: [Target.Dependency] = []
) -> Service {
  Service(name: name, product: product, uses: uses, processUses: processUses, testUses: testUses)
}

let services: [Service] = [
  // Accounts, sessions, profiles, roles, friends, emergency contacts, cards, signing keys.
  service(
    "Identity",
    product: "identity",
    uses: ["BinarioPayments", .grpcProtobuf, .crypto, .cryptoExtras, .jwtKit, .asyncHTTPClient, .nioCore],
    processUses: ["BinarioStorage"],
    testUses: ["BinarioDevCertificates", "BinarioPayments", .prometheus, .jwtKit, .cryptoExtras, .grpcInProcessTransport, .grpcProtobuf, .crypto]
  ),
  // The timetable (GTFS), live changes, the notification centre, itineraries.
  service(
    "Scheduling",
    product: "scheduling",
    uses: ["BinarioZlib", "BinarioCompression", "BinarioWebPush", .asyncHTTPClient, .nioCore],
    processUses: ["BinarioWebPush", .asyncHTTPClient, .nioSSL],
    testUses: ["BinarioWebPush", .zipFoundation]
  ),
  // Fares, tickets, the wallet, validation, subscriptions shared among friends.
  service("Ticketing", product: "ticketing", uses: ["BinarioPayments", .crypto], testUses: ["BinarioPayments"]),
  // Deals, route offers and places near a position, nearest stations, welcomes.
  service("GeoOffers", product: "geo-offers"),
  // Taxis on demand: zones' fair queues, rides, drivers' offers, the control room.
  service("Dispatch", product: "dispatch", uses: ["BinarioPayments"], testUses: ["BinarioPayments"]),
  // Sensor boards' readings, campaigns, the regional reference stations.
  service("Telemetry", product: "telemetry", uses: [.crypto, .asyncHTTPClient, .nioCore]),
  // The front doors: routes, checks and forwards client calls on the frame layer.
  service(
    "Gateway",
    product: "gateway",
    uses: [
      "BinarioTracing", "BinarioCompression", .tracing, .nioCore, .nioPosix, .nioSSL, .prometheus, .serviceLifecycle, .grpcHTTP2Transport,
      .grpcProtobuf,
      .hummingbird, .hummingbirdCore, .hummingbirdTLS, .httpTypes, .crypto, .nioHTTP2, .nioHPACK,
    ],
    processUses: ["BinarioTransport", .serviceLifecycle],
    testUses: [
      "BinarioEcho", "BinarioDevCertificates", "IdentityService", .crypto, .prometheus, .grpcProtobuf, .nioCore, .nioPosix,
      .nioEmbedded, .hummingbird,
    ]
  ),
]

// MARK: - Tools

let tools: [Target] = [
  // The command-line client: every feature, through the gateway. Like each tool the image holds,
  // its commands are a library and its executable one line (see `Service`).
  .target(
    name: "BinarioCLI",
    dependencies: [
      "BinarioAuth", "BinarioDomain", "BinarioProto", "BinarioTransport", .grpcCore, .grpcProtobuf, .swiftProtobuf, .argumentParser,
    ],
    path: "CLI",
    exclude: ["Main", "README.md"]
  ),
  .executableTarget(name: "binario", dependencies: ["BinarioCLI"], path: "CLI/Main"),
  .target(
    name: "BinarioDevCertsCommand",
    dependencies: ["BinarioDevCertificates", "BinarioWebPush", .argumentParser],
    path: "deploy/dev-certs/Command"
  ),
  .executableTarget(name: "binario-dev-certs", dependencies: ["BinarioDevCertsCommand"], path: "deploy/dev-certs/Main"),
  .executableTarget(name: "binario-echo-server", dependencies: ["BinarioServiceKit", "BinarioEcho", .argumentParser], path: "deploy/echo-server"),
  // Asks a process's /livez or /readyz: container health checks without curl in the image.
  .target(name: "BinarioProbeCommand", dependencies: [.argumentParser, .nioCore, .nioPosix, .nioHTTP1], path: "deploy/probe/Command"),
  .executableTarget(name: "binario-probe", dependencies: ["BinarioProbeCommand"], path: "deploy/probe/Main"),
  // Lists, takes and restores a service's database backups (the services take them on a schedule).
  .target(name: "BinarioBackupCommand", dependencies: ["BinarioStorage", .argumentParser], path: "deploy/backup/Command"),
  .executableTarget(name: "binario-backup", dependencies: ["BinarioBackupCommand"], path: "deploy/backup/Main"),
  // Every parser of a stranger's bytes as a function of bytes: what `Fuzz/`'s libFuzzer program
  // drives and `FuzzRegressionTests` replays.
  .target(
    name: "BinarioFuzzTargets",
    dependencies: ["BinarioTransport", "GatewayService", "SchedulingService", "TelemetryService"],
    path: "Fuzz/Targets"
  ),
  // The chaos run: the suite under load while processes are killed (`scripts/chaos.sh`, and
  // `ChaosTests` in the test command).
  .target(
    name: "BinarioChaos",
    dependencies: ["BinarioDomain", "BinarioProto", "BinarioTransport", "BinarioTestSupport", .grpcCore, .grdb, .swiftProtobuf],
    path: "Chaos/Run"
  ),
  .executableTarget(name: "binario-chaos", dependencies: ["BinarioChaos", "BinarioTestSupport", .argumentParser], path: "Chaos/Command"),
  // The load generator: the five apps' people at a constant arrival rate through any front door
  // (`docs/capacity.md`). `binario-loadgen` runs it against a running suite (compose's and
  // Kubernetes' `loadgenerator`); `Benchmarks/`' capacity-bench finds the suite's capacity with it.
  .target(
    name: "BinarioLoad",
    dependencies: [
      "BinarioProto", "BinarioServiceKit", "BinarioTransport", "GatewayService", .grpcCore, .grpcProtobuf, .grpcHTTP2Transport, .swiftProtobuf,
      .asyncHTTPClient,
      .nioCore, .nioHTTP1, .nioSSL, .histogram,
    ],
    path: "Benchmarks/LoadGenerator/Run"
  ),
  .target(
    name: "BinarioLoadCommand",
    dependencies: ["BinarioLoad", "BinarioServiceKit", .argumentParser],
    path: "Benchmarks/LoadGenerator/Command"
  ),
  .executableTarget(name: "binario-loadgen", dependencies: ["BinarioLoadCommand"], path: "Benchmarks/LoadGenerator/Main"),
]

// MARK: - Tests

let testTargets: [Target] = [
  // What tests, the chaos run and gateway-bench share: this package's executables as real
  // processes, up to the whole suite (`RunningSuite`), the identity client's account helpers, and
  // the scan of a database file for what is left of a person.
  .target(
    name: "BinarioTestSupport",
    dependencies: [
      "BinarioDevCertificates", "BinarioDomain", "BinarioProto", "BinarioTransport", "BinarioWebPush", .grpcCore, .grdb, .jwtKit,
      .cryptoExtras, .nioCore, .nioPosix, .nioHTTP1, .nioSSL,
    ],
    path: "Tests/Support"
  ),
  .testTarget(name: "FuzzRegressionTests", dependencies: ["BinarioFuzzTargets"]),
  .testTarget(
    name: "BinarioTransportTests",
    dependencies: [
      "BinarioTransport", "BinarioProto", "BinarioEcho", "BinarioDevCertificates", "BinarioTestSupport",
      .grpcCore, .grpcProtobuf, .swiftProtobuf, .nioCore, .nioPosix, .nioSSL, .nioTLS, .nioEmbedded,
    ]
  ),
  .testTarget(
    name: "BinarioEventsTests",
    dependencies: [
      "BinarioEvents", "BinarioDomain", "BinarioProto", "BinarioStorage", "BinarioTransport", "BinarioDevCertificates", "BinarioTestSupport",
      .grdb, .grpcCore, .grpcInProcessTransport, .logging, .serviceLifecycle,
    ]
  ),
  .testTarget(
    name: "BinarioStorageTests",
    dependencies: ["BinarioStorage", "BinarioTracing", .grdb, .tracing, .inMemoryTracing, .nioCore, .nioPosix]
  ),
  .testTarget(
    name: "BinarioServiceKitTests",
    dependencies: [
      "BinarioServiceKit", "BinarioAuth", "BinarioDomain", "BinarioProto", "BinarioTransport", "BinarioDevCertificates",
      "BinarioTracing", "BinarioTestSupport", .tracing, .inMemoryTracing, .w3cTraceContext, .grpcCore, .grpcInProcessTransport, .grpcProtobuf,
      .logging, .metrics,
      .serviceLifecycle, .nioCore, .nioPosix, .grpcHTTP2Transport, .swiftProtobuf,
    ]
  ),
  .testTarget(
    name: "BinarioAuthTests",
    dependencies: ["BinarioAuth", "BinarioDomain", "BinarioProto", "BinarioTransport", .grpcCore, .grpcInProcessTransport, .jwtKit, .crypto]
  ),
  .testTarget(name: "BinarioPaymentsTests", dependencies: ["BinarioPayments"]),
  .testTarget(name: "BinarioLoadTests", dependencies: ["BinarioLoad", "BinarioProto", "GatewayService", .grpcCore, .nioCore]),
  .testTarget(name: "BinarioWebPushTests", dependencies: ["BinarioWebPush", "BinarioDomain", .crypto, .jwtKit]),
  .testTarget(name: "BinarioDomainTests", dependencies: ["BinarioDomain"]),
  .testTarget(name: "BinarioDevCertificatesTests", dependencies: ["BinarioDevCertificates", .x509, .crypto]),
  // The suite as real processes on loopback with real TLS and SQLite files.
  .testTarget(
    name: "EndToEndTests",
    dependencies: [
      "BinarioProto", "BinarioTransport", "BinarioDevCertificates", "BinarioTestSupport", "BinarioServiceKit", "BinarioChaos", "BinarioWebPush",
      "BinarioLoad",
      "BinarioDomain", .crypto, .jwtKit, .logging, .prometheus, .serviceLifecycle, .grpcCore, .grpcProtobuf, .asyncHTTPClient, .nioSSL, .nioHTTP1,
      .zipFoundation,
      .grdb, .nioCore, .swiftProtobuf, .grpcHTTP2Transport, .nioPosix, .nioTLS, .nioConcurrencyHelpers,
    ]
  ),
]

// MARK: - The package

let package = Package(
  name: "Binario",
  platforms: [.macOS(.v15)],
  products: [
    "BinarioProto", "BinarioTransport", "BinarioStorage", "BinarioTracing", "BinarioDomain", "BinarioServiceKit",
    "BinarioEvents", "BinarioDevCertificates", "BinarioEcho", "BinarioAuth", "BinarioPayments", "BinarioWebPush", "BinarioTestSupport",
    "BinarioFuzzTargets", "BinarioLoad", "BinarioCLI", "BinarioDevCertsCommand", "BinarioProbeCommand", "BinarioLoadCommand",
    "BinarioBackupCommand",
  ].map { Product.library(name: $0, targets: [$0]) }
    + services.flatMap(\.products)
    + ["binario", "binario-dev-certs", "binario-echo-server", "binario-probe", "binario-backup", "binario-chaos", "binario-loadgen"].map {
      Product.executable(name: $0, targets: [$0])
    },
  dependencies: packageDependencies,
  targets: sharedLibraries + services.flatMap(\.targets) + tools + testTargets
)

// Every Swift target: Swift 6 language mode, `any` spelled out.
for target in package.targets where target.type != .system && target.name != "BinarioConcurrencyHook" {
  target.swiftSettings = (target.swiftSettings ?? []) + [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
}

// The fuzzers' build (`scripts/fuzz.sh`, which sets BINARIO_FUZZING=1): libFuzzer's coverage and
// AddressSanitizer in Binario's own modules only, where the parsers it drives are. The
// dependencies (BoringSSL twice, NIO, gRPC) are built plain, which halves that build's work;
// `Fuzz/Package.swift` links the two runtimes into its driver.
if Context.environment["BINARIO_FUZZING"] == "1" {
  for target in package.targets where target.type != .system && target.type != .test {
    if target.name == "BinarioConcurrencyHook" {
      target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize=fuzzer-no-link,address"])]
    } else {
      target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-sanitize=fuzzer,address"])]
    }
  }
}
