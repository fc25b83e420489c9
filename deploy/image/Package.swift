// swift-tools-version:6.1
import PackageDescription

/// The container image's one shared library: every process's command (the services', the CLI's,
/// the tools') with all they link, in `libBinarioSuite.so`.
///
/// The image's executables stay separate programs, each a C `main` (`main.c`) that calls its entry
/// point in this library (`Suite/EntryPoints.swift`), so the image holds the Swift runtime, the
/// libraries and Binario's own code once instead of once per executable. A package of its own
/// because a package cannot link its own executables against its own dynamic library, and so the
/// development build never links this one. `deploy/build-release.sh` builds it.
let package = Package(
  name: "BinarioImage",
  platforms: [.macOS(.v15)],
  products: [.library(name: "BinarioSuite", type: .dynamic, targets: ["BinarioSuite"])],
  dependencies: [.package(name: "Binario", path: "../..")],
  targets: [
    .target(
      name: "BinarioSuite",
      dependencies: [
        "IdentityProcess", "SchedulingProcess", "TicketingProcess", "GeoOffersProcess", "DispatchProcess", "TelemetryProcess",
        "GatewayProcess", "BinarioCLI", "BinarioDevCertsCommand", "BinarioProbeCommand", "BinarioLoadCommand",
        "BinarioBackupCommand",
      ].map { .product(name: $0, package: "Binario") },
      path: "Suite",
      swiftSettings: [.swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny")]
    )
  ]
)
