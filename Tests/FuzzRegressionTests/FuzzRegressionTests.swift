import BinarioFuzzTargets
import Foundation
import Testing

/// Every input the fuzzers keep, replayed through its target in the ordinary build: the corpus
/// (`Fuzz/Corpus/<target>`, seeds and what the fuzzer found) and the inputs that once crashed a
/// target (`Fuzz/Regressions/<target>`, each named for what it broke). A target returns for any
/// input; one that traps fails this test by stopping the test process.
@Suite("Fuzzers' kept inputs")
struct FuzzRegressionTests {
  static let fuzzFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz")

  static func inputs(of target: FuzzTarget, in kind: String) throws -> [URL] {
    let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
    guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
    return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
      .filter { !$0.lastPathComponent.hasPrefix(".") }
      .sorted { $0.lastPathComponent < $1.lastPathComponent }
  }

  @Test(arguments: FuzzTarget.allCases)
  func everyKeptInputRuns(_ target: FuzzTarget) throws {
    let corpus = try Self.inputs(of: target, in: "Corpus")
    #expect(corpus.contains { $0.lastPathComponent.hasPrefix("seed-") }, "\(target.rawValue) has no seed")
    for input in try corpus + Self.inputs(of: target, in: "Regressions") {
      target.run(Array(try Data(contentsOf: input)))
    }
  }
}
