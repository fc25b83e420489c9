import BinarioTestSupport
import Foundation
import Testing

/// The web app (`clients/web`), served by the gateway, in headless Chromium on one suite start:
/// `Tests/FrontDoorClients/web_app.py` signs up and in, watches the demo station's board change
/// live as an admin delays a train, buys a ticket whose QR code zbarimg decodes and the
/// inspectors accept, adds subscriptions and an itinerary, uploads a board's readings and finds
/// them on the chart and the map, watches the control room as a driver rejects an offer, resets
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
    try await RunningSuite.with { suite in
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
