import Foundation
import Logging
import Testing

@testable import BinarioServiceKit

@Suite("Log handlers")
struct LogHandlerTests {
  /// 2025-03-01T08:15:02.042Z
  private static let fixedDate = Date(timeIntervalSince1970: 1_740_816_902.042_5)

  private func jsonLogger(_ writer: CollectingLogWriter, level: Logger.Level = .trace) -> Logger {
    Logger(label: "identity") { label in
      JSONLogHandler(label: label, logLevel: level, writer: writer, metadataProvider: RequestID.metadataProvider) {
        Self.fixedDate
      }
    }
  }

  private func parse(_ line: String) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(object as? [String: Any])
  }

  @Test("a JSON line is one valid JSON object with the fixed fields and flattened metadata")
  func jsonLine() throws {
    let writer = CollectingLogWriter()
    var logger = jsonLogger(writer)
    logger[metadataKey: "service"] = "identity"
    let message = "quote \" backslash \\ newline \n tab \t bell \u{07} accent é sep \u{2028} para \u{2029} euro € train 🚆"

    logger.info(
      "\(message)",
      metadata: [
        "peer": ["address": "10.0.0.7", "port": "7001"],
        "roles": ["driver", "admin"],
        "level": "shadowing",
      ]
    )

    let lines = writer.lines
    try #require(lines.count == 1)
    #expect(!lines[0].contains("\n"))
    // Escaped so the line is also JavaScript; other multi-byte characters pass as they are.
    #expect(lines[0].contains(#"sep \u2028 para \u2029 euro € train 🚆"#))
    #expect(lines[0].contains(#"bell \u0007 accent"#))
    let object = try parse(lines[0])
    #expect(object["timestamp"] as? String == "2025-03-01T08:15:02.042Z")
    #expect(object["level"] as? String == "info")
    #expect(object["label"] as? String == "identity")
    #expect(object["message"] as? String == message)
    #expect(object["service"] as? String == "identity")
    #expect(object["peer.address"] as? String == "10.0.0.7")
    #expect(object["peer.port"] as? String == "7001")
    #expect(object["roles"] as? [String] == ["driver", "admin"])
    #expect(object["metadata.level"] as? String == "shadowing")
  }

  @Test("a JSON line carries the event's error and the request id bound to the task")
  func jsonErrorAndRequestID() throws {
    struct Broken: Error, CustomStringConvertible { var description: String { "disk on fire" } }
    let writer = CollectingLogWriter()
    let logger = jsonLogger(writer)

    RequestID.$current.withValue("req-42") {
      logger.error("write failed", error: Broken())
    }

    let object = try parse(try #require(writer.lines.first))
    #expect(object["error"] as? String == "disk on fire")
    #expect(object["request-id"] as? String == "req-42")
  }

  @Test("the handler's level filters events")
  func levelFilters() {
    let writer = CollectingLogWriter()
    let logger = jsonLogger(writer, level: .notice)
    logger.info("dropped")
    logger.notice("kept")
    #expect(writer.lines.count == 1)
    #expect(writer.lines.first?.contains("kept") == true)
  }

  @Test("the factory picks the handler for the configured format and level")
  func factory() throws {
    let writer = CollectingLogWriter()
    let json = ServiceLogging.makeHandler(label: "a", level: .warning, format: .json, writer: writer)
    #expect(json is JSONLogHandler)
    #expect(json.logLevel == .warning)
    let human = ServiceLogging.makeHandler(label: "a", level: .debug, format: .human, writer: writer)
    #expect(human is HumanLogHandler)
    #expect(human.logLevel == .debug)
  }

  @Test("a human line has time, level, label, message and sorted key=value metadata")
  func humanLine() throws {
    let writer = CollectingLogWriter()
    let logger = Logger(label: "gateway") { label in
      HumanLogHandler(label: label, logLevel: .trace, writer: writer) { Self.fixedDate }
    }

    logger.warning("slow call", metadata: ["method": "Login", "note": "took a while", "empty": ""])

    #expect(
      writer.lines == [
        #"2025-03-01T08:15:02.042Z warning gateway: slow call empty="" method=Login note="took a while""#
      ]
    )
  }
}
