import ArgumentParser
import BinarioDevCertificates
import Foundation

/// Creates the development CA and one certificate per Binario process.
@main
struct DevCertsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "binario-dev-certs",
    abstract: "Create the development CA and a mutual-TLS certificate for each Binario process.",
    discussion: """
      Writes ca.pem/ca.key and <process>.pem/<process>.key for \
      \(DevCertificateSet.processNames.joined(separator: ", ")). \
      An existing CA in the folder is kept, so certificates made earlier stay trusted; \
      only missing or unusable certificates are made. Keys are written with permissions 0600.
      """
  )

  @Option(name: .long, help: "The folder to write the certificates into.")
  var out: String = ".dev/certs"

  @Flag(name: .long, help: "Create a new CA and new certificates even if usable ones exist.")
  var force = false

  func run() throws {
    let directory = URL(fileURLWithPath: out, isDirectory: true).standardizedFileURL
    do {
      let summary = try DevCertificateSet.write(to: directory, force: force)
      print("Development certificates in \(directory.path):")
      for line in summary {
        print("  \(line)")
      }
    } catch let error as DevCertificateError {
      FileHandle.standardError.write(Data("binario-dev-certs: \(error.description)\n".utf8))
      throw ExitCode.failure
    }
  }
}
