import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRDB
import GRPCCore
import SwiftProtobuf
import Testing

/// An account's life across the suite, through the gateway, with one suite start of its own (it
/// reads every service's database file afterwards for what is left of the person): an admin
/// disables it and enables it again, its owner deletes it; each service follows identity's
/// events (Shared/Events) and the outcome is checked where its user would see it.
@Suite("An account's life across the suite", .serialized)
struct AccountLifecycleTests {
  typealias Identity = Binario_Identity_V1_Identity.Client<BinarioClientTransport>
  typealias Telemetry = Binario_Telemetry_V1_Telemetry.Client<BinarioClientTransport>

  static let password = "a-good-password-1"

  static func reading(_ index: Int) -> Binario_Telemetry_V1_Reading {
    .with {
      $0.time = Google_Protobuf_Timestamp(date: Date().addingTimeInterval(Double(index - 1000)))
      $0.latitude = 45.4705
      $0.longitude = 9.1975
      $0.pm25 = 12
    }
  }

  @Test func disabledEnabledThenDeletedEverywhere() async throws {
    try await RunningSuite.with { suite in
      try await suite.waitUntilTheGatewaySeesServing("telemetry")
      let person = try await suite.withGatewayConnection { connection in
        let (identity, telemetry) = (Identity(wrapping: connection), Telemetry(wrapping: connection))
        let admin = try await identity.signInAdmin()
        let erin = try await identity.signUp(email: "erin@example.com", password: Self.password, firstName: "Erin", admin: admin)
        let userID = try await identity.getMe(.init(), metadata: bearer(erin)).profile.userID
        let registered = try await telemetry.registerDevice(.with { $0.name = "Erin's board" }, metadata: bearer(erin))
        let board: Metadata = ["authorization": .string("Device \(registered.token)")]
        func upload(_ index: Int) async throws -> Binario_Telemetry_V1_UploadReadingsResponse {
          try await telemetry.uploadReadings(.with { $0.readings = [Self.reading(index)] }, metadata: board)
        }
        #expect(try await upload(0).stored == 1)

        // Disabled by an admin: the board's uploads are refused, saying why.
        _ = try await identity.disableAccount(
          .with {
            $0.account.userID = userID
            $0.reason = "reported"
          },
          metadata: bearer(admin)
        )
        let refusal = try await eventually("telemetry refuses a disabled account's board") { () -> RPCError? in
          do {
            _ = try await upload(1)
            return nil
          } catch let error as RPCError {
            return error
          }
        }
        #expect(refusal.code == .permissionDenied)
        #expect(refusal.message.contains("disabled"))

        // Enabled again: the same token uploads again.
        _ = try await identity.enableAccount(.with { $0.account.userID = userID }, metadata: bearer(admin))
        let stored = try await eventually("telemetry takes the enabled account's board again") { try? await upload(2).stored }
        #expect(stored == 1)

        // Deleted by its owner: the board is gone, token and readings with it.
        let again = try await identity.login(
          .with {
            $0.email = "erin@example.com"
            $0.password = Self.password
          }
        ).tokens
        _ = try await identity.deleteMe(.with { $0.password = Self.password }, metadata: bearer(again))
        let gone = try await eventually("telemetry forgets a deleted account's board") { () -> RPCError? in
          do {
            _ = try await upload(3)
            return nil
          } catch let error as RPCError where error.code == .unauthenticated {
            return error
          }
        }
        #expect(gone.message.contains("not valid"))
        return (userID: userID, email: "erin@example.com", deviceID: registered.device.id)
      }

      // Nothing of the person is left in telemetry's database.
      let leftovers = try Self.occurrences(
        of: [person.userID, person.email, person.deviceID],
        in: suite.folder.appendingPathComponent("data/telemetry/telemetry.sqlite")
      )
      #expect(leftovers.isEmpty, "\(leftovers)")
    }
  }

  /// Every `table.column` of the SQLite file at `path` (opened read-only) holding one of
  /// `identifiers`, as text or inside a blob.
  static func occurrences(of identifiers: [String], in path: URL) throws -> [String] {
    var configuration = Configuration()
    configuration.readonly = true
    let database = try DatabaseQueue(path: path.path, configuration: configuration)
    return try database.read { db in
      var found: [String] = []
      let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      for table in tables {
        let columns = try db.columns(in: table).map(\.name)
        for column in columns {
          for identifier in identifiers {
            let count =
              try Int.fetchOne(
                db,
                sql: "SELECT count(*) FROM \"\(table)\" WHERE instr(CAST(\"\(column)\" AS BLOB), CAST(? AS BLOB)) > 0",
                arguments: [identifier]
              ) ?? 0
            if count > 0 { found.append("\(table).\(column) holds \(identifier) (\(count) rows)") }
          }
        }
      }
      return found
    }
  }
}
