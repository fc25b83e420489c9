/// One line of a CSV file as ``CSVTable`` reads it back (RFC 4180): fields joined by commas, a
/// field that holds a comma, a quote or a line break quoted with its quotes doubled, ended by
/// CRLF. The suite's one CSV writer.
public enum CSVLine {
  public static func encode(_ fields: [String]) -> String {
    fields.map { field in
      field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
        ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
    }.joined(separator: ",") + "\r\n"
  }
}
