import BinarioTestSupport
import Foundation
import Testing

/// The web app (`clients/web`), served by the gateway, in headless Chromium on one suite start:
/// `Tests/FrontDoorClients/web_app.py` signs up and in, watches the demo station's board change
/// live as an admin delays a train, buys a ticket whose QR code zbarimg decodes and the
/// inspectors accept, adds subscriptions and an itinerary, uploads a board's readings and finds
/// them on the chart and the map, watches the control room as a driver rejects an offer, calls a
/// taxi from the passenger's position and watches it come as the driver's page reports, resets
/// a password, and checks the board on a phone-sized screen, with no console error anywhere.
/// Its screenshots of every page are the test's artefacts, in `.build/web-app-screenshots`.
@Suite("The web app in a browser, end to end", .serialized)
struct WebAppTests {
  static let screenshots = RunningSuite.packageRoot.appendingPathComponent(".build/web-app-screenshots")

  @Test func everyPageAsItsPeopleUseIt() async throws {
    let tools = try FrontDoorTools()
    try #require(
      RunningSuite.webAppLibrariesInstalled,
      "the web app needs Debian's libjs-leaflet, libjs-chart.js and node-qrcode-generator: run scripts/install-system-packages.sh"
    )
    try #require(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg"),
      "the web app's test reads QR codes with Debian's zbar-tools: scripts/test.sh installs it"
    )
    // The driver's emulated device moves 200 m as soon as the passenger's map shows its last
    // move: far faster than a taxi drives. The speed limit of the position filter is the
    // operator's to set (it is tested in PositionFilterTests and DispatchTests): here, none.
    let filter = FileManager.default.temporaryDirectory.appendingPathComponent("position-filter-\(UUID().uuidString).json")
    try Data(#"{"fastestKmh": 1000000}"#.utf8).write(to: filter)
    defer { try? FileManager.default.removeItem(at: filter) }
    try await RunningSuite.with(extraFlags: .init(dispatch: ["--position-filter", filter.path])) { suite in
      try await suite.waitUntilTheGatewaySeesServing("dispatch")
      try await suite.waitUntilTheGatewaySeesServing("telemetry")
      let run = try await tools.python(
        "Tests/FrontDoorClients/web_app.py",
        [
          "--url", "https://localhost:\(suite.gatewayHTTPPort)", "--ca", suite.caFile,
          "--admin-email", RunningSuite.adminEmail, "--admin-password", RunningSuite.adminPassword,
          "--readings", RunningSuite.packageRoot.appendingPathComponent("Services/Telemetry/DemoData/board-walk-2024-01-15.csv").path,
          "--reference-folder", RunningSuite.packageRoot.appendingPathComponent("Services/Telemetry/DemoData").path,
          "--screenshots", Self.screenshots.path,
        ]
      )
      #expect(run.status == 0, "web app: \(run.standardOutput)\(run.standardError)")
      // The figures the browser measured (the first visit on Fast 3G), in the test command's output.
      for line in run.standardOutput.split(separator: "\n") where line.hasPrefix("measured:") { print("web app \(line)") }
    }
  }
}
