// swift-tools-version:6.1
import PackageDescription

/// The suite's fuzzers: one libFuzzer program, `binario-fuzz`, that runs any of the targets in
/// `Fuzz/Targets` (the main package's `BinarioFuzzTargets`; `BINARIO_FUZZ_TARGET` names which).
///
/// A package of its own because it is built differently from everything else: with
/// `--sanitize fuzzer --sanitize address` (coverage-guided, AddressSanitizer), in its own build
/// folder. `scripts/fuzz.sh` builds and runs it; the regression test
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
        .product(name: "BinarioFuzzTargets", package: "Binario")
      ],
      path: "Driver",
      swiftSettings: [
        .swiftLanguageMode(.v6),
        // libFuzzer brings `main`.
        .unsafeFlags(["-parse-as-library"]),
      ]
    )
  ]
)
