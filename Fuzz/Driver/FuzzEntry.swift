import BinarioFuzzTargets
import Glibc

/// The target `BINARIO_FUZZ_TARGET` names, chosen once.
private let target: FuzzTarget = {
  guard let name = getenv("BINARIO_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name) else {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    fatalError("set BINARIO_FUZZ_TARGET to one of: \(names)")
  }
  return target
}()

/// libFuzzer's entry: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  target.run(input)
  return 0
}
