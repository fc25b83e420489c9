import BinarioDomain
import Testing

@Suite("CSVTable: RFC 4180, with the file, line and column of every fault")
struct CSVTableTests {
  func table(
    _ text: String,
    separator: UInt8 = UInt8(ascii: ","),
    required: [String] = [],
    ignoringCase: Bool = false
  ) throws(CSVError)
    -> CSVTable
  {
    try CSVTable(file: "t.csv", bytes: Array(text.utf8), separator: separator, required: required, ignoringCase: ignoringCase)
  }

  @Test("a quoted field's line break counts toward the next row's line")
  func lines() throws {
    let table = try table("\u{FEFF}id,note\r\n1,\"two\nlines\"\n\n2,plain\n")
    #expect(table.header == ["id", "note"])
    #expect(table.rows.map(\.line) == [2, 5])
    #expect(table.rows[0]["note"] == "two\nlines")
    #expect(table.rows[1].value("note") == "plain")
  }

  @Test("faults name the file, line and column")
  func faults() {
    #expect(throws: CSVError(file: "t.csv", line: 2, column: 2, reason: "a quote inside an unquoted field")) {
      try table("a,b\n1,x\"y\n")
    }
    #expect(throws: CSVError(file: "t.csv", line: 3, column: 3, reason: "3 fields, but the header names 2")) {
      try table("a,b\n1,2\n1,2,3\n")
    }
    #expect(throws: CSVError(file: "t.csv", line: 1, reason: "the header has no b column")) {
      try table("a\n1\n", required: ["b"])
    }
    #expect(throws: CSVError(file: "t.csv", reason: "the file is empty (it needs a header line)")) {
      try table("")
    }
    #expect(throws: CSVError(file: "t.csv", line: 2, column: 1, reason: "id is required")) {
      try table("id,name\n,x\n").rows[0].required("id")
    }
  }

  @Test("another separator, and column names in any case")
  func separatorAndCase() throws {
    let table = try table("IdSensore;Valore\n1; 2,5 \n", separator: UInt8(ascii: ";"), required: ["idsensore"], ignoringCase: true)
    #expect(table.rows[0].value("idsensore") == "1")
    #expect(table.rows[0].value("VALORE") == "2,5")
    #expect(table.rows[0]["valore"] == " 2,5 ")
  }

  @Test("text that is not UTF-8 is refused at its line and column, not read as replacement characters")
  func invalidUTF8() {
    // "Città" saved as Latin-1: à is the single byte 0xE0.
    let latin1: [UInt8] = Array("stop_id,stop_name\nA,Citt".utf8) + [0xE0] + Array("\n".utf8)
    #expect(throws: CSVError(file: "stops.txt", line: 2, column: 2, reason: "the text is not valid UTF-8 (save the file as UTF-8)")) {
      try CSVTable(file: "stops.txt", bytes: latin1)
    }
    // The same, properly encoded, reads.
    #expect((try? CSVTable(file: "stops.txt", bytes: Array("stop_id,stop_name\nA,Città\n".utf8)))?.rows[0]["stop_name"] == "Città")
  }

  @Test("a written line reads back as its fields, separators, quotes and line breaks included")
  func linesReadBack() throws {
    let fields = ["plain", "Milano, Centrale", "say \"binario\"", "two\nlines", ""]
    let text = CSVLine.encode(["a", "b", "c", "d", "e"]) + CSVLine.encode(fields)
    #expect(CSVLine.encode(["a", "b"]) == "a,b\r\n")
    #expect(try CSVTable(file: "t.csv", bytes: Array(text.utf8)).rows[0].fields == fields)
  }
}
