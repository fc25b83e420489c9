import Foundation

/// One run of a command-line product of this package, to completion: what a person typing the
/// command would see (exit status, standard output, standard error).
public struct CommandRun: Sendable {
  public var status: Int32
  public var standardOutput: String
  public var standardError: String

  /// Runs `executableName` from ``ServiceProcess/productsFolder`` with `arguments`, feeding it
  /// `standardInput`, and waits for it to exit (on its termination event, without blocking a
  /// thread). Output goes to files, so a chatty command can never block on a full pipe.
  public static func run(
    _ executableName: String,
    _ arguments: [String],
    environment: [String: String] = [:],
    standardInput: String = ""
  ) async throws -> CommandRun {
    try await Self.run(
      executable: ServiceProcess.productsFolder.appendingPathComponent(executableName),
      arguments,
      environment: environment,
      standardInput: standardInput
    )
  }

  /// Runs the program at `executable` (a script's interpreter, a tool) the same way.
  public static func run(
    executable: URL,
    _ arguments: [String],
    environment: [String: String] = [:],
    standardInput: String = ""
  ) async throws -> CommandRun {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binario-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = ["in", "out", "err"].map { folder.appendingPathComponent($0) }
    try Data(standardInput.utf8).write(to: files[0])
    for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    let input = try FileHandle(forReadingFrom: files[0])
    let output = try FileHandle(forWritingTo: files[1])
    let errors = try FileHandle(forWritingTo: files[2])
    defer { for handle in [input, output, errors] { try? handle.close() } }

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    let status = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(throwing: error)
      }
    }
    return CommandRun(
      status: status,
      standardOutput: String(decoding: try Data(contentsOf: files[1]), as: UTF8.self),
      standardError: String(decoding: try Data(contentsOf: files[2]), as: UTF8.self)
    )
  }
}
