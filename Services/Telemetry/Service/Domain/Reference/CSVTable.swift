/// A CSV file as rows of fields (RFC 4180: fields in double quotes may hold commas, line breaks
/// and doubled quotes; CRLF or LF line ends; a byte-order mark is skipped). The first row names the
/// columns; lookups by name ignore case.
public struct CSVTable: Sendable {
  public let header: [String]
  public let rows: [[String]]
  private let columns: [String: Int]

  public init(_ text: String, separator: Character = ",") {
    var records: [[String]] = []
    var record: [String] = []
    var field = ""
    var quoted = false
    var fieldStarted = false
    var characters = Substring(text)
    if characters.first == "\u{FEFF}" { characters = characters.dropFirst() }
    var iterator = characters.makeIterator()
    var pending: Character? = nil
    func next() -> Character? {
      if let character = pending {
        pending = nil
        return character
      }
      return iterator.next()
    }
    func endRecord() {
      record.append(field)
      if !(record.count == 1 && record[0].isEmpty && !fieldStarted) { records.append(record) }
      record = []
      field = ""
      fieldStarted = false
    }
    while let character = next() {
      if quoted {
        if character == "\"" {
          if let following = next() {
            if following == "\"" {
              field.append("\"")
            } else {
              quoted = false
              pending = following
            }
          } else {
            quoted = false
          }
        } else {
          field.append(character)
        }
      } else if character == "\"" && field.isEmpty {
        quoted = true
        fieldStarted = true
      } else if character == separator {
        record.append(field)
        field = ""
        fieldStarted = true
      } else if character == "\n" || character == "\r\n" || character == "\r" {
        endRecord()
      } else {
        field.append(character)
        fieldStarted = true
      }
    }
    if fieldStarted || !field.isEmpty || !record.isEmpty { endRecord() }
    header = records.first?.map { $0.trimmingSpaces } ?? []
    rows = Array(records.dropFirst())
    var columns: [String: Int] = [:]
    for (index, name) in header.enumerated() where columns[name.lowercased()] == nil { columns[name.lowercased()] = index }
    self.columns = columns
  }

  /// The field of `row` in the column `name` (any case); `nil` when there is no such column or
  /// the row is short; empty fields are `nil` too.
  public func value(_ row: [String], _ name: String) -> String? {
    guard let index = columns[name.lowercased()], index < row.count else { return nil }
    let value = row[index].trimmingSpaces
    return value.isEmpty ? nil : value
  }
}

extension String {
  var trimmingSpaces: String {
    var slice = Substring(self)
    while let first = slice.first, first.isWhitespace { slice.removeFirst() }
    while let last = slice.last, last.isWhitespace { slice.removeLast() }
    return String(slice)
  }
}
