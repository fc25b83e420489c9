import ArgumentParser
import BinarioServiceKit
import Foundation
import Testing

@Suite("A service's own settings")
struct OwnSettingReaderTests {
  @Test("the flag wins over the environment; each refusal names the flag")
  func flagsEnvironmentAndRefusals() throws {
    let reader = OwnSettingReader(environment: ["BINARIO_X": "12.5", "BINARIO_N": "7", "BINARIO_ZONE": "Mars/Olympus", "BINARIO_LIST": " a, ,b "])
    #expect(try reader.number(nil, "BINARIO_X", name: "x", in: 0 ... 100) == 12.5)
    #expect(try reader.number(3, "BINARIO_X", name: "x", in: 0 ... 100) == 3)
    #expect(try reader.number(nil, "BINARIO_UNSET", name: "x", in: 0 ... 100) == nil)
    #expect(throws: ValidationError.self) { try reader.number(101, "BINARIO_X", name: "x", in: 0 ... 100) }
    #expect(throws: ValidationError.self) { try reader.number(.nan, "BINARIO_X", name: "x", in: 0 ... 100) }
    #expect(throws: ValidationError.self) {
      try OwnSettingReader(environment: ["BINARIO_X": "lots"]).number(nil, "BINARIO_X", name: "x", in: 0 ... 100)
    }
    #expect(try reader.integer(nil, "BINARIO_N", name: "n", in: 1 ... 10) == 7)
    #expect(throws: ValidationError.self) { try reader.integer(nil, "BINARIO_X", name: "n", in: 1 ... 100) }
    #expect(try reader.timeZone("Europe/Rome", "BINARIO_ZONE", name: "zone").identifier == "Europe/Rome")
    #expect(throws: ValidationError.self) { try reader.timeZone(nil, "BINARIO_ZONE", name: "zone") }
    #expect(try reader.timeZone(nil, "BINARIO_UNSET", name: "zone").identifier == "Europe/Rome")
    #expect(reader.list(nil, "BINARIO_LIST") == ["a", "b"])
    #expect(throws: ValidationError.self) { try reader.file("/nonexistent/file.json", "BINARIO_F", name: "f") }
    #expect(try reader.file(nil, "BINARIO_F", name: "f") == nil)
  }
}
