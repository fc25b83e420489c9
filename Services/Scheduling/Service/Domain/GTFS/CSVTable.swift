/// One GTFS file: a CSV table (RFC 4180: quoted fields, doubled quotes, CRLF or LF, an optional
/// UTF-8 byte-order mark), read by column name, every value knowing its line and column so a
/// fault can be named exactly.
struct CSVTable: Sendable {
  /// One data row: its line in the file (1-based; the header is line 1) and its fields.
  struct Row: Sendable {
    let file: String
    let line: Int
    fileprivate let fields: [String]
    fileprivate let columns: [String: Int]

    /// The value of `column`, empty when the file has no such column or the field is empty.
    subscript(_ column: String) -> String {
      guard let index = self.columns[column], index < self.fields.count else { return "" }
      return self.fields[index]
    }

    /// The value of a column the row must have.
    func required(_ column: String) throws(GTFSError) -> String {
      let value = self[column]
      guard !value.isEmpty else { throw self.error(column, "\(column) is required") }
      return value
    }

    /// An error at `column` of this row.
    func error(_ column: String, _ reason: String) -> GTFSError {
      GTFSError(file: self.file, line: self.line, column: self.columns[column].map { $0 + 1 } ?? 0, reason: reason)
    }
  }

  let file: String
  let header: [String]
  let rows: [Row]

  /// Parses `bytes`; `required` names the columns the file must have.
  init(file: String, bytes: [UInt8], required: [String]) throws(GTFSError) {
    self.file = file
    var records: [(line: Int, fields: [String])] = []
    var fields: [String] = []
    var field: [UInt8] = []
    var line = 1
    var recordLine = 1
    var quoted = false
    var fieldStarted = false
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0

    func endField() {
      fields.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
      fieldStarted = false
    }
    func endRecord() {
      endField()
      // A blank line (one empty field) is no record.
      if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
      fields.removeAll(keepingCapacity: true)
    }

    while index < bytes.count {
      let byte = bytes[index]
      if quoted {
        if byte == UInt8(ascii: "\"") {
          if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
            field.append(byte)
            index += 1
          } else {
            quoted = false
          }
        } else {
          if byte == UInt8(ascii: "\n") { line += 1 }
          field.append(byte)
        }
      } else {
        switch byte {
        case UInt8(ascii: "\""):
          guard !fieldStarted, field.isEmpty else {
            throw GTFSError(file: file, line: line, column: fields.count + 1, reason: "a quote inside an unquoted field")
          }
          quoted = true
          fieldStarted = true
        case UInt8(ascii: ","):
          endField()
        case UInt8(ascii: "\r"):
          ()
        case UInt8(ascii: "\n"):
          endRecord()
          line += 1
          recordLine = line
        default:
          field.append(byte)
        }
      }
      index += 1
    }
    if quoted {
      throw GTFSError(file: file, line: recordLine, column: fields.count + 1, reason: "a quoted field is never closed")
    }
    if !field.isEmpty || !fields.isEmpty || fieldStarted { endRecord() }

    guard let header = records.first else {
      throw GTFSError(file: file, reason: "the file is empty (it needs a header line)")
    }
    self.header = header.fields.map(\.trimmedSpaces)
    var columns: [String: Int] = [:]
    for (position, name) in self.header.enumerated() where columns[name] == nil { columns[name] = position }
    for name in required where columns[name] == nil {
      throw GTFSError(file: file, line: 1, reason: "the header has no \(name) column")
    }
    var rows: [Row] = []
    rows.reserveCapacity(records.count - 1)
    for record in records.dropFirst() {
      guard record.fields.count <= self.header.count else {
        throw GTFSError(
          file: file,
          line: record.line,
          column: self.header.count + 1,
          reason: "\(record.fields.count) fields, but the header names \(self.header.count)"
        )
      }
      rows.append(Row(file: file, line: record.line, fields: record.fields, columns: columns))
    }
    self.rows = rows
  }
}

extension String {
  /// Without leading and trailing spaces and tabs.
  fileprivate var trimmedSpaces: String {
    var view = Substring(self)
    while view.first == " " || view.first == "\t" { view = view.dropFirst() }
    while view.last == " " || view.last == "\t" { view = view.dropLast() }
    return String(view)
  }
}
