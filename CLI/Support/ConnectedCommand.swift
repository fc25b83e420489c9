import ArgumentParser
import Foundation
import GRPCCore

/// A subcommand that talks to the gateway. Conformers implement ``call(_:)``; failures print
/// the status and the fields at fault (never a stack trace) and exit with status 1.
protocol ConnectedCommand: AsyncParsableCommand {
  var gateway: GatewayConnectionOptions { get }
  func call(_ gateway: GatewayConnection) async throws
}

extension ConnectedCommand {
  func run() async throws {
    do {
      try await GatewayConnection.with(self.gateway) { try await self.call($0) }
    } catch let error as ValidationError {
      throw error
    } catch let error as ExitCode {
      throw error
    } catch let error as CLIError {
      FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
      throw ExitCode.failure
    } catch let error as RPCError where error.cause is CLIError {
      // Thrown by an interceptor (nobody signed in), which GRPCCore wraps.
      FileHandle.standardError.write(Data("error: \(error.cause!)\n".utf8))
      throw ExitCode.failure
    } catch {
      FileHandle.standardError.write(Data((ErrorReport.describe(error) + "\n").utf8))
      throw ExitCode.failure
    }
  }
}
