/// A CSV file (RFC 4180: quoted fields that may hold separators, line breaks and doubled quotes;
/// CRLF or LF; an optional UTF-8 byte-order mark), read by column name, every value knowing its
/// line and column so that a fault is named exactly (``CSVError``). The first line names the
/// columns. Text must be UTF-8: a field that is not (a file saved as Latin-1, say) is refused at
/// its line and column rather than read with replacement characters. The suite's one CSV reader: GTFS feeds and the regional open-data exports.
public struct CSVTable: Sendable {
  /// One data row: its line in the file (1-based; the header is line 1) and its fields.
  public struct Row: Sendable {
    public let file: String
    public let line: Int
    /// The fields as written (a row may be shorter than the header).
    public let fields: [String]
    fileprivate let columns: [String: Int]
    fileprivate let ignoringCase: Bool

    fileprivate func index(_ column: String) -> Int? {
      self.columns[self.ignoringCase ? column.lowercased() : column]
    }

    /// The value of `column` as written, empty when the file has no such column or the field is
    /// empty.
    public subscript(_ column: String) -> String {
      guard let index = self.index(column), index < self.fields.count else { return "" }
      return self.fields[index]
    }

    /// The value of `column` without surrounding whitespace; `nil` when it is empty or missing.
    public func value(_ column: String) -> String? {
      let value = self[column].trimmingWhitespace
      return value.isEmpty ? nil : value
    }

    /// The value of a column the row must have.
    public func required(_ column: String) throws(CSVError) -> String {
      let value = self[column]
      guard !value.isEmpty else { throw self.error(column, "\(column) is required") }
      return value
    }

    /// An error at `column` of this row.
    public func error(_ column: String, _ reason: String) -> CSVError {
      CSVError(file: self.file, line: self.line, column: self.index(column).map { $0 + 1 } ?? 0, reason: reason)
    }
  }

  public let file: String
  public let header: [String]
  public let rows: [Row]

  /// Parses `bytes`. `required` names the columns the file must have; with `ignoringCase`, column
  /// names match in any case (the open-data exports' headers vary).
  public init(
    file: String,
    bytes: [UInt8],
    separator: UInt8 = UInt8(ascii: ","),
    required: [String] = [],
    ignoringCase: Bool = false
  ) throws(CSVError) {
    self.file = file
    var records: [(line: Int, fields: [String])] = []
    var fields: [String] = []
    var field: [UInt8] = []
    var line = 1
    var recordLine = 1
    var quoted = false
    var fieldStarted = false
    var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0

    func endField() throws(CSVError) {
      guard let text = String(validating: field, as: UTF8.self) else {
        throw CSVError(file: file, line: line, column: fields.count + 1, reason: "the text is not valid UTF-8 (save the file as UTF-8)")
      }
      fields.append(text)
      field.removeAll(keepingCapacity: true)
      fieldStarted = false
    }
    func endRecord() throws(CSVError) {
      try endField()
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
            throw CSVError(file: file, line: line, column: fields.count + 1, reason: "a quote inside an unquoted field")
          }
          quoted = true
          fieldStarted = true
        case separator:
          try endField()
        case UInt8(ascii: "\r"):
          ()
        case UInt8(ascii: "\n"):
          try endRecord()
          line += 1
          recordLine = line
        default:
          field.append(byte)
        }
      }
      index += 1
    }
    if quoted {
      throw CSVError(file: file, line: recordLine, column: fields.count + 1, reason: "a quoted field is never closed")
    }
    if !field.isEmpty || !fields.isEmpty || fieldStarted { try endRecord() }

    guard let header = records.first else {
      throw CSVError(file: file, reason: "the file is empty (it needs a header line)")
    }
    self.header = header.fields.map(\.trimmedSpaces)
    var columns: [String: Int] = [:]
    for (position, name) in self.header.enumerated() {
      let key = ignoringCase ? name.lowercased() : name
      if columns[key] == nil { columns[key] = position }
    }
    for name in required where columns[ignoringCase ? name.lowercased() : name] == nil {
      throw CSVError(file: file, line: 1, reason: "the header has no \(name) column")
    }
    var rows: [Row] = []
    rows.reserveCapacity(records.count - 1)
    for record in records.dropFirst() {
      guard record.fields.count <= self.header.count else {
        throw CSVError(
          file: file,
          line: record.line,
          column: self.header.count + 1,
          reason: "\(record.fields.count) fields, but the header names \(self.header.count)"
        )
      }
      rows.append(Row(file: file, line: record.line, fields: record.fields, columns: columns, ignoringCase: ignoringCase))
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

  /// Without leading and trailing whitespace (line breaks too).
  fileprivate var trimmingWhitespace: String {
    var view = Substring(self)
    while let first = view.first, first.isWhitespace { view = view.dropFirst() }
    while let last = view.last, last.isWhitespace { view = view.dropLast() }
    return String(view)
  }
}
