import ArgumentParser
import AsyncHTTPClient
import BinarioDomain
import BinarioServiceKit
import BinarioWebPush
import Foundation
import NIOSSL
import SchedulingService

/// Scheduling's own settings, beside ServiceKit's common ones and the identity address, each
/// declared once: a flag, a `BINARIO_*` variable or a key of the config file (flags win, then
/// variables, then the file).
extension Setting {
  static let timetableFolder = Setting(
    "timetableFolder",
    help: "A GTFS feed folder loaded at first start, when no timetable was ever imported (the repository's Services/Scheduling/DemoNetwork).",
    valueName: "folder"
  )

  static let timetableZone = Setting(
    "timetableZone",
    help:
      "The time zone of a timetable that names none (one imported before feeds' agency_timezone was kept); an imported feed's own zone wins. Default Europe/Rome.",
    valueName: "zone"
  )

  static let webPushPrivateKey = Setting(
    "webPushPrivateKey",
    help:
      "Sends Web Push to browsers: the VAPID private key, a P-256 scalar in base64url (`binario-dev-certs --web-push-key` makes one). (BINARIO_WEB_PUSH_PRIVATE_KEY; prefer the variable: flags show in ps)",
    valueName: "key"
  )

  static let webPushSubject = Setting(
    "webPushSubject",
    help: "Who push services may contact about this server's pushes: a mailto: or https: address; default mailto:operations@binario.invalid.",
    valueName: "address"
  )

  static let webPushTrustRoots = Setting(
    "webPushTrustRoots",
    help: "PEM certificates push services' TLS must chain to, instead of the system's (for a push service on a private CA).",
    valueName: "file"
  )
}

/// The flags of the settings above; ``given`` pairs each with its value.
struct SchedulingOptions: ParsableArguments {
  @Option(name: .customLong(Setting.timetableFolder.flagName), help: Setting.timetableFolder.argumentHelp)
  var timetableFolder: String?

  @Option(name: .customLong(Setting.timetableZone.flagName), help: Setting.timetableZone.argumentHelp)
  var timetableZone: String?

  @Option(name: .customLong(Setting.webPushPrivateKey.flagName), help: Setting.webPushPrivateKey.argumentHelp)
  var webPushPrivateKey: String?

  @Option(name: .customLong(Setting.webPushSubject.flagName), help: Setting.webPushSubject.argumentHelp)
  var webPushSubject: String?

  @Option(name: .customLong(Setting.webPushTrustRoots.flagName), help: Setting.webPushTrustRoots.argumentHelp)
  var webPushTrustRoots: String?

  /// Each setting with what its flag was given.
  var given: [AdditionalSetting] {
    [
      Setting.timetableFolder.given(timetableFolder),
      Setting.timetableZone.given(timetableZone),
      Setting.webPushPrivateKey.given(webPushPrivateKey),
      Setting.webPushSubject.given(webPushSubject),
      Setting.webPushTrustRoots.given(webPushTrustRoots),
    ]
  }

  static func folder(_ values: AdditionalSettingValues) throws -> String? {
    try values.folder(.timetableFolder)
  }

  /// The server's VAPID identity, or `nil` when no key is set (no Web Push).
  static func webPush(_ values: AdditionalSettingValues) throws -> VAPIDIdentity? {
    let subject = try values.value(.webPushSubject) { $0 } ?? "mailto:operations@binario.invalid"
    return try values.value(.webPushPrivateKey) { key in
      do {
        return try VAPIDIdentity(privateKey: key, subject: subject)
      } catch let error as ServiceError {
        throw Refusal(error.description)
      }
    }
  }

  /// The HTTP client pushes go out on: the system's trust roots, or the configured ones.
  static func pushClient(_ values: AdditionalSettingValues) throws -> HTTPClient {
    guard let roots = try values.file(.webPushTrustRoots, { try NIOSSLCertificate.fromPEMBytes(Array($0)) }) else {
      return HTTPClient.shared
    }
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .certificates(roots)
    return HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
  }

  static func zone(_ values: AdditionalSettingValues) throws -> ServiceDayZone {
    try values.value(.timetableZone) { name in
      guard let zone = ServiceDayZone(identifier: name) else { throw Refusal("expected a time zone such as Europe/Rome, got \(name)") }
      return zone
    } ?? ServiceDayZone(identifier: "Europe/Rome")!
  }
}
