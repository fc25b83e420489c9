// swift-tools-version:6.1
import PackageDescription

/// The suite's fuzzers: one libFuzzer program, `binario-fuzz`, that runs any of the targets in
/// `Fuzz/Targets` (the main package's `BinarioFuzzTargets`; `BINARIO_FUZZ_TARGET` names which).
///
/// A package of its own because it is built differently from everything else: Binario's modules
/// with libFuzzer's coverage and AddressSanitizer (`BINARIO_FUZZING=1`, see the main
/// `Package.swift`), in its own build folder. `scripts/fuzz.sh` builds and runs it; the regression test
/// (`Tests/FuzzRegressionTests`) replays the kept inputs in the ordinary test build.
let package = Package(
  name: "BinarioFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "Binario", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "binario-fuzz",
      dependencies: [
        "FuzzEntry",
        .product(name: "BinarioFuzzTargets", package: "Binario"),
      ],
      path: "Driver",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        // `main` is FuzzEntry's, which runs libFuzzer's driver.
        .unsafeFlags(["-parse-as-library"]),
      ],
      // The main package instruments its own modules when BINARIO_FUZZING=1 (scripts/fuzz.sh
      // sets it); linking with the same flag brings libFuzzer and AddressSanitizer's runtime.
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
    ),
    .target(name: "FuzzEntry", path: "Entry"),
  ]
)
