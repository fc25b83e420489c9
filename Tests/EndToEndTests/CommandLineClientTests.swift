import BinarioTestSupport
import Foundation
import Testing

/// The `binario` command-line client against the running suite, as a person would type it:
/// exit statuses, what it prints, and the session file it keeps.
@Suite("The command-line client, end to end through the gateway", .serialized)
struct CommandLineClientTests {
  @Test func healthRegisterConfirmLoginMeEveryIdentityCommandLogoutAndTheKeptTokenIsRefused() async throws {
    let provider = try await TestOpenIDProvider.make()
    let keys = try await StaticHTTPServer.start()
    defer { Task { await keys.stop() } }
    keys.serve(try provider.jwks(), at: "/certs")
    let flags = RunningSuite.ExtraFlags(identity: [
      "--google-client-id", TestOpenIDProvider.clientID, "--google-issuer", TestOpenIDProvider.issuer,
      "--google-keys-url", keys.url("/certs"),
    ])
    try await RunningSuite.with(extraFlags: flags) { suite in
      let cli = CommandLine(suite: suite)
      let health = try await cli.run(["health"])
      #expect(health.status == 0, "\(health.standardError)")
      #expect(health.standardOutput == "the suite: SERVING\n")
      let identityHealth = try await cli.run(["health", "--service", "identity", "--wait", "30"])
      #expect(identityHealth.status == 0, "\(identityHealth.standardError)")
      #expect(identityHealth.standardOutput == "identity: SERVING\n")
      let unknown = try await cli.run(["health", "--service", "nowhere"])
      #expect(unknown.status != 0)
      #expect(unknown.standardError.contains("[notFound]"), "\(unknown.standardError)")

      let adminSession = cli.file("admin-session.json")
      let admin = try await cli.run(
        ["login", "--email", RunningSuite.adminEmail, "--password-stdin", "--session", adminSession],
        standardInput: RunningSuite.adminPassword + "\n"
      )
      #expect(admin.status == 0, "\(admin.standardError)")

      let email = "grace@example.com"
      let details = [
        "--first-name", "Grace", "--last-name", "Hopper", "--birth-date", "1906-12-09", "--gender", "female",
      ]
      let refused = try await cli.run(
        ["register", "--password-stdin", "--email", email, "--phone", "+39 bad"] + details,
        standardInput: "a-good-password-1\n"
      )
      #expect(refused.status != 0)
      #expect(refused.standardError.hasPrefix("error: 1 field is not valid [invalidArgument]\n  phone: \"+39 bad\""))
      #expect(!refused.standardError.contains("Fatal error"))

      let registered = try await cli.run(
        ["register", "--password-stdin", "--email", email, "--phone", "+393331234567"] + details,
        standardInput: "a-good-password-1\n"
      )
      #expect(registered.status == 0, "\(registered.standardError)")
      let confirmed = try await cli.run(["confirm", "--email", email, "--from-outbox", "--admin-session", adminSession])
      #expect(confirmed.status == 0, "\(confirmed.standardError)")

      let login = try await cli.run(["login", "--email", email], environment: ["BINARIO_PASSWORD": "a-good-password-1"])
      #expect(login.status == 0, "\(login.standardError)")
      let permissions = try FileManager.default.attributesOfItem(atPath: cli.session)[.posixPermissions] as? Int
      #expect(permissions == 0o600)

      let me = try await cli.run(["me"])
      #expect(me.status == 0, "\(me.standardError)")
      #expect(me.standardOutput.contains(email))
      #expect(me.standardOutput.contains("Grace"))
      #expect(me.standardOutput.contains("+393331234567 (not verified)"))

      try await phoneAndCards(cli, adminSession: adminSession)
      try await contactsAndRecovery(cli, adminSession: adminSession)
      try await google(cli, provider: provider)
      try await administration(cli, adminSession: adminSession)

      // Keep a copy of the signed-in session, sign out, then try the copy: the gateway must
      // refuse its access token at once, not when it expires.
      let kept = cli.file("kept-session.json")
      try FileManager.default.copyItem(atPath: cli.session, toPath: kept)
      let logout = try await cli.run(["logout"])
      #expect(logout.status == 0, "\(logout.standardError)")
      #expect(!FileManager.default.fileExists(atPath: cli.session))

      let afterLogout = try await cli.run(["me", "--session", kept])
      #expect(afterLogout.status != 0)
      #expect(afterLogout.standardError.contains("[unauthenticated]"), "\(afterLogout.standardError)")
      // An emergency with that dead session still goes out: signed out, to 112, without a
      // position when none is given, and says so.
      let alert = try await cli.run(["emergency", "alert", "--session", kept, "--note", "fell"])
      #expect(alert.status == 0, "\(alert.standardError)")
      #expect(alert.standardOutput.contains("alerting 112 without it"), "\(alert.standardOutput)")
      #expect(alert.standardOutput.contains("to Emergency services 112"), "\(alert.standardOutput)")
      #expect(alert.standardOutput.contains("Posizione sconosciuta"), "\(alert.standardOutput)")

      let signedOut = try await cli.run(["me"])
      #expect(signedOut.status != 0)
      #expect(signedOut.standardError.contains("not signed in"), "\(signedOut.standardError)")
    }
  }
}

extension CommandLineClientTests {
  /// The newest 6-digit code sent to `recipient`, as the admin reads it with `admin outbox`.
  func code(_ cli: CommandLine, to recipient: String, adminSession: String) async throws -> String {
    let outbox = try await cli.run(["admin", "outbox", "--recipient", recipient, "--limit", "1", "--session", adminSession])
    #expect(outbox.status == 0, "\(outbox.standardError)")
    let words = outbox.standardOutput.split(whereSeparator: { !$0.isNumber })
    return try #require(words.first { $0.count == 6 }.map(String.init), "no code in \(outbox.standardOutput)")
  }

  func phoneAndCards(_ cli: CommandLine, adminSession: String) async throws {
    let wrong = try await cli.run(["phone", "verify", "--code", "12"])
    #expect(wrong.status != 0 && wrong.standardError.contains("code:"), "\(wrong.standardError)")
    let code = try await code(cli, to: "+393331234567", adminSession: adminSession)
    let verified = try await cli.run(["phone", "verify", "--code", code])
    #expect(verified.status == 0, "\(verified.standardError)")
    #expect(verified.standardOutput == "+393331234567 is verified\n")

    let card = ["BINARIO_CARD_NUMBER": "4242 4242 4242 4242", "BINARIO_CARD_SECURITY_CODE": "123"]
    let added = try await cli.run(["cards", "add", "--expiry", "12/2040"], environment: card)
    #expect(added.status == 0, "\(added.standardError)")
    #expect(added.standardOutput.contains("visa ending 4242  expires 12/2040  (default)"))
    let declined = try await cli.run(
      ["cards", "add", "--expiry", "12/2040"],
      environment: ["BINARIO_CARD_NUMBER": "4000000000000002", "BINARIO_CARD_SECURITY_CODE": "123"]
    )
    #expect(declined.status != 0 && declined.standardError.contains("[failedPrecondition]"), "\(declined.standardError)")
    let second = try await cli.run(
      ["cards", "add", "--expiry", "01/2041", "--make-default"],
      environment: ["BINARIO_CARD_NUMBER": "5555555555554444", "BINARIO_CARD_SECURITY_CODE": "321"]
    )
    #expect(second.status == 0, "\(second.standardError)")
    let list = try await cli.run(["cards", "list"])
    let lines = list.standardOutput.split(separator: "\n")
    #expect(lines.count == 2 && lines[0].contains("mastercard ending 4444") && lines[0].hasSuffix("(default)"))
    let visaID = String(try #require(lines.last?.split(separator: " ").first))
    let chosen = try await cli.run(["cards", "default", visaID])
    #expect(chosen.status == 0 && chosen.standardOutput.contains("visa ending 4242"), "\(chosen.standardError)")
    let mastercardID = String(try #require(lines.first?.split(separator: " ").first))
    let removed = try await cli.run(["cards", "remove", mastercardID])
    #expect(removed.status == 0, "\(removed.standardError)")
  }

  func contactsAndRecovery(_ cli: CommandLine, adminSession: String) async throws {
    let saved = try await cli.run(["friends", "add-contact", "--name", "Kay", "--email", "kay@example.com"])
    #expect(saved.status == 0, "\(saved.standardError)")
    #expect(saved.standardOutput.hasPrefix("saved Kay <kay@example.com>, pending registration"))
    let friends = try await cli.run(["friends"])
    #expect(friends.standardOutput.contains("Kay <kay@example.com>  (pending registration)"))

    // Kay signs up (only the required fields), confirms, and forgets her password.
    let kaySession = cli.file("kay-session.json")
    let registered = try await cli.run(
      ["register", "--email", "kay@example.com", "--first-name", "Kay", "--password-stdin"],
      standardInput: "kays-password-1\n"
    )
    #expect(registered.status == 0, "\(registered.standardError)")
    _ = try await cli.run(["confirm", "--email", "kay@example.com", "--from-outbox", "--admin-session", adminSession])
    let nowFriends = try await cli.run(["friends"])
    #expect(nowFriends.standardOutput.contains("Kay <kay@example.com>  ["), "\(nowFriends.standardOutput)")
    #expect(!nowFriends.standardOutput.contains("pending"))

    let forgot = try await cli.run(["password", "forgot", "--email", "kay@example.com"])
    #expect(forgot.status == 0, "\(forgot.standardError)")
    let outbox = try await cli.run(["admin", "outbox", "--recipient", "kay@example.com", "--limit", "1", "--session", adminSession])
    let link = try #require(outbox.standardOutput.range(of: "?token="))
    let token = String(outbox.standardOutput[link.upperBound...].prefix { !$0.isWhitespace })
    let reset = try await cli.run(
      ["password", "reset", "--token", token, "--session", kaySession],
      environment: ["BINARIO_NEW_PASSWORD": "kays-new-password-2"]
    )
    #expect(reset.status == 0, "\(reset.standardError)")
    let login = try await cli.run(
      ["login", "--email", "kay@example.com", "--session", kaySession],
      environment: ["BINARIO_PASSWORD": "kays-new-password-2"]
    )
    #expect(login.status == 0, "\(login.standardError)")
    let changed = try await cli.run(
      ["change-password", "--session", kaySession],
      environment: ["BINARIO_PASSWORD": "kays-new-password-2", "BINARIO_NEW_PASSWORD": "kays-third-password-3"]
    )
    #expect(changed.status == 0, "\(changed.standardError)")
  }

  func google(_ cli: CommandLine, provider: TestOpenIDProvider) async throws {
    let token = try await provider.idToken(.init(subject: "g-42", email: "lin@gmail.com"))
    let session = cli.file("lin-session.json")
    let login = try await cli.run(["login", "--google-id-token", token, "--session", session])
    #expect(login.status == 0, "\(login.standardError)")
    #expect(login.standardOutput.hasPrefix("signed in as lin@gmail.com (passenger); your account was created"))
    let me = try await cli.run(["me", "--session", session])
    #expect(me.standardOutput.contains("sign-in:    google"))
    let both = try await cli.run(["login", "--google-id-token", token, "--email", "lin@gmail.com"])
    #expect(both.status != 0)
  }

  func administration(_ cli: CommandLine, adminSession: String) async throws {
    func admin(_ arguments: [String]) async throws -> CommandRun {
      let run = try await cli.run(["admin"] + arguments + ["--session", adminSession])
      #expect(run.status == 0, "\(arguments): \(run.standardError)")
      return run
    }
    let list = try await admin(["users", "list", "--query", "kay"])
    #expect(list.standardOutput.hasPrefix("kay@example.com  Kay  [passenger]"), "\(list.standardOutput)")
    let show = try await admin(["users", "show", "--email", "kay@example.com"])
    #expect(show.standardOutput.contains("user id:"))
    let update = try await admin(["users", "update", "--email", "kay@example.com", "--last-name", "Kane"])
    #expect(update.standardOutput.contains("name:       Kay Kane"))
    _ = try await admin(["users", "disable", "--email", "kay@example.com", "--reason", "test"])
    let refused = try await cli.run(
      ["login", "--email", "kay@example.com", "--session", cli.file("kay-session.json")],
      environment: ["BINARIO_PASSWORD": "kays-third-password-3"]
    )
    #expect(refused.status != 0 && refused.standardError.contains("[permissionDenied]"), "\(refused.standardError)")
    _ = try await admin(["users", "enable", "--email", "kay@example.com"])
    _ = try await cli.run(
      ["admin", "create-driver", "--email", "dan@example.com", "--first-name", "Dan", "--password-stdin", "--session", adminSession],
      standardInput: "dans-password-1\n"
    )
    let notDriver = try await cli.run(["admin", "users", "delete", "--email", "kay@example.com", "--session", adminSession])
    #expect(notDriver.status != 0 && notDriver.standardError.contains("[failedPrecondition]"))
    _ = try await admin(["users", "delete", "--email", "dan@example.com"])
    let audit = try await admin(["users", "audit"])
    let actions = audit.standardOutput.split(separator: "\n").map { $0.split(separator: " ")[2] }
    #expect(actions == ["delete-driver", "create-driver", "enable-account", "disable-account", "update-account"], "\(audit.standardOutput)")
    let missing = try await cli.run(["admin", "users", "show", "--session", adminSession])
    #expect(missing.status != 0 && missing.standardError.contains("--email or --user-id"))
  }
}

/// Runs `binario` against one running suite, with a session file in the suite's folder.
extension CommandLineClientTests {
  /// Scheduling's commands: a passenger follows a run from the board and watches their
  /// notifications while an admin delays it; the history, deliveries and an itinerary.
  @Test func tripsNotificationsAdminTripsItinerariesTicketsAndSubscriptions() async throws {
    try await RunningSuite.with { suite in
      let cli = CommandLine(suite: suite)
      let adminSession = cli.file("admin-session.json")
      let admin = try await cli.run(
        ["login", "--email", RunningSuite.adminEmail, "--password-stdin", "--session", adminSession],
        standardInput: RunningSuite.adminPassword + "\n"
      )
      #expect(admin.status == 0, "\(admin.standardError)")
      let email = "rider@example.com"
      let registered = try await cli.run(
        ["register", "--password-stdin", "--email", email, "--first-name", "Rita", "--phone", "+393331234567"],
        standardInput: "a-good-password-1\n"
      )
      #expect(registered.status == 0, "\(registered.standardError)")
      #expect(try await cli.run(["confirm", "--email", email, "--from-outbox", "--admin-session", adminSession]).status == 0)
      #expect(try await cli.run(["login", "--email", email], environment: ["BINARIO_PASSWORD": "a-good-password-1"]).status == 0)

      let stations = try await cli.run(["trips", "stations", "Bergamo"])
      #expect(stations.standardOutput.hasPrefix("BERGAMO  Bergamo"), "\(stations.standardOutput)\(stations.standardError)")
      let board = try await cli.run(["trips", "board", "MI_CENTRALE", "--limit", "3"])
      #expect(board.status == 0, "\(board.standardError)")
      #expect(board.standardOutput.hasPrefix("Departures from Milano Centrale\n"))
      // The first departure's "[trip date]".
      let firstLine = board.standardOutput.split(separator: "\n")[1]
      let reference = try #require(firstLine.split(separator: "[").last?.split(separator: "]").first).split(separator: " ")
      let (trip, date) = (String(reference[0]), String(reference[1]))
      #expect(try await cli.run(["trips", "follow", trip, "--date", date]).standardOutput == "following \(trip) on \(date)\n")
      let shown = try await cli.run(["trips", "show", trip, "--date", date])
      #expect(shown.standardOutput.contains("1. "), "\(shown.standardOutput)")

      // The watch starts from the beginning of the (empty) inbox, so the delay reaches it
      // whether the admin's command runs before or after the stream opens.
      async let watched = cli.run(["notifications", "watch", "--cursor", "0", "--count", "1"])
      let delayed = try await cli.run(
        ["trips", "delay", trip, "--date", date, "--minutes", "7", "--reason", "Late crew", "--session", adminSession].withAdminPrefix
      )
      #expect(delayed.status == 0, "\(delayed.standardError)")
      #expect(delayed.standardOutput.contains("(+7 → "), "\(delayed.standardOutput)")
      let watch = try await watched
      #expect(watch.status == 0, "\(watch.standardError)")
      #expect(watch.standardOutput.contains("[tripDelay]") && watch.standardOutput.contains("7 minutes late"), "\(watch.standardOutput)")

      let createdRun = try await cli.run(
        [
          "trips", "create", "--date", "2027-03-01", "--line", "RE_BERGAMO", "--train-number", "9999",
          "--stop", "MI_CENTRALE@10:00#7", "--stop", "MI_LAMBRATE@10:07-10:08", "--stop", "BERGAMO@10:50",
          "--session", adminSession,
        ].withAdminPrefix
      )
      #expect(createdRun.status == 0, "\(createdRun.standardError)")
      #expect(createdRun.standardOutput.hasPrefix("R4 9999 to Bergamo"), "\(createdRun.standardOutput)")
      #expect(createdRun.standardOutput.contains("Milano Lambrate") && createdRun.standardOutput.contains("platform 7"))

      let passengerDelay = try await cli.run(["admin", "trips", "delay", trip, "--date", date, "--minutes", "1", "--reason", "x"])
      #expect(passengerDelay.status != 0 && passengerDelay.standardError.contains("[permissionDenied]"))
      let history = try await cli.run(["trips", "history", trip, "--date", date, "--session", adminSession].withAdminPrefix)
      #expect(history.standardOutput.contains("delay 7 min from stop") && history.standardOutput.contains("Late crew"))
      let list = try await cli.run(["notifications", "list"])
      #expect(list.standardOutput.hasPrefix("1 unread\n"), "\(list.standardOutput)")
      #expect(try await cli.run(["notifications", "read", "--all"]).standardOutput == "marked 1 read; 0 unread\n")
      let preferences = try await cli.run(["notifications", "preferences", "--push", "off", "--email", "off"])
      #expect(preferences.status != 0 && preferences.standardError.contains("at least one channel"), "\(preferences.standardError)")
      let device = try await cli.run(["notifications", "devices", "add", "--platform", "fcm", "--token", "tok-123", "--name", "Pixel"])
      #expect(device.status == 0, "\(device.standardError)")

      let created = try await cli.run(
        [
          "itineraries", "create", "--name", "Bergamo Alta", "--destination", "Bergamo", "--start", "2027-04-10",
          "--end", "2027-04-10", "--cost", "45.50",
        ])
      #expect(created.status == 0, "\(created.standardError)")
      #expect(created.standardOutput.contains("organiser Rita") && created.standardOutput.contains("share 45.50 EUR"), "\(created.standardOutput)")
      try await Self.tripEditsAndMoney(cli, trip: created.standardOutput, run: createdRun.standardOutput)

      try await Self.ticketsAndSubscriptions(cli, adminSession: adminSession)
      try await Self.geoOffers(cli, adminSession: adminSession)
      try await Self.taxis(cli, adminSession: adminSession)
      try await Self.telemetry(cli, adminSession: adminSession)
    }
  }

  /// A trip edited, its train from the timetable added, expenses in two currencies and the
  /// balances, the calendar file. `trip` and `run` are what `itineraries create` and
  /// `trips create` printed.
  static func tripEditsAndMoney(_ cli: CommandLine, trip: String, run: String) async throws {
    let id = String(try #require(trip.split(separator: "[").last?.split(separator: "]").first))
    let runReference = try #require(run.split(separator: "\n").first?.split(separator: "[").last?.split(separator: "]").first).split(separator: " ")
    let edited = try await cli.run(["itineraries", "edit", id, "--name", "Bergamo Alta day", "--cost", "60"])
    #expect(
      edited.standardOutput.hasPrefix("Bergamo Alta day — Bergamo") && edited.standardOutput.contains("share 60.00 EUR"),
      "\(edited.standardOutput)\(edited.standardError)"
    )
    let nothing = try await cli.run(["itineraries", "edit", id])
    #expect(nothing.status != 0 && nothing.standardError.contains("pass what changes"), "\(nothing.standardError)")

    let train = try await cli.run(
      [
        "itineraries", "event", "train", id, "--trip", String(runReference[0]), "--date", String(runReference[1]), "--from", "MI_CENTRALE",
        "--to", "BERGAMO", "--ticket", "t-123",
      ])
    #expect(train.status == 0 && train.standardOutput.contains("R4 9999 → Bergamo"), "\(train.standardOutput)\(train.standardError)")
    let backwards = try await cli.run(
      [
        "itineraries", "event", "train", id, "--trip", String(runReference[0]), "--date", String(runReference[1]), "--from", "BERGAMO", "--to",
        "MI_CENTRALE",
      ]
    )
    #expect(backwards.status != 0 && backwards.standardError.contains("event.train.to_station_id"), "\(backwards.standardError)")
    let shown = try await cli.run(["itineraries", "show", id])
    #expect(shown.standardOutput.contains("train R4 9999  on time  platform 7  ticket t-123"), "\(shown.standardOutput)")

    let lunch = try await cli.run(["itineraries", "expense", "add", id, "--description", "Lunch", "--amount", "31.30"])
    #expect(
      lunch.standardOutput.contains("Lunch  31.30 EUR  paid by Rita") && lunch.standardOutput.contains("(equal)"),
      "\(lunch.standardOutput)\(lunch.standardError)"
    )
    let yen = try await cli.run(["itineraries", "expense", "add", id, "--description", "Souvenir", "--amount", "1200", "--currency", "JPY"])
    #expect(yen.standardOutput.contains("Souvenir  1200 JPY"), "\(yen.standardOutput)\(yen.standardError)")
    let badSplit = try await cli.run(["itineraries", "expense", "add", id, "--description", "X", "--amount", "1", "--split", "thirds"])
    #expect(badSplit.status != 0 && badSplit.standardError.contains("--split is"), "\(badSplit.standardError)")
    let balances = try await cli.run(["itineraries", "balances", id])
    #expect(
      balances.standardOutput.contains("EUR: spent 31.30 EUR") && balances.standardOutput.contains("JPY: spent 1200 JPY")
        && balances.standardOutput.contains("all settled"),
      "\(balances.standardOutput)"
    )
    let listed = try await cli.run(["itineraries", "expense", "list", id])
    #expect(listed.standardOutput.components(separatedBy: "expense ").count == 3, "\(listed.standardOutput)")

    let file = cli.file("trip.ics")
    let calendar = try await cli.run(["itineraries", "calendar", id, "--output", file])
    #expect(calendar.standardOutput == "wrote \(file)\n", "\(calendar.standardOutput)\(calendar.standardError)")
    let ics = try String(contentsOfFile: file, encoding: .utf8)
    #expect(ics.contains("BEGIN:VCALENDAR") && ics.contains("SUMMARY:R4 9999 → Bergamo"), "\(ics)")
  }

  /// A board registered (its token saved), readings uploaded from the demo walk (and a bad one
  /// refused), statistics, the reference stations imported by the admin and compared, a simulated
  /// board streaming, and the device token useless for anything else.
  static func telemetry(_ cli: CommandLine, adminSession: String) async throws {
    let demo = RunningSuite.packageRoot.appendingPathComponent("Services/Telemetry/DemoData").path
    let tokenFile = cli.file("board.token")
    let added = try await cli.run(["devices", "add", "Bike board", "--save-token", tokenFile])
    #expect(
      added.standardOutput.contains("Bike board  yours, private") && added.standardOutput.contains("device token (shown once"),
      "\(added.standardOutput)\(added.standardError)"
    )
    let deviceID = String(try #require(added.standardOutput.split(separator: " ").first))
    let uploaded = try await cli.run(["readings", "upload", "\(demo)/board-walk-2024-01-15.csv", "--token-file", tokenFile])
    #expect(
      uploaded.standardOutput == "480 of 480 readings accepted: 480 stored, 0 already stored\n",
      "\(uploaded.standardOutput)\(uploaded.standardError)"
    )
    let bad = try await cli.run(
      ["readings", "upload", "-", "--token-file", tokenFile],
      standardInput: "time,latitude,longitude,humidity\n2024-01-15T13:00:00Z,45.47,9.19,101\n2024-01-15T13:00:30Z,45.47,9.19,55\n"
    )
    #expect(
      bad.standardOutput.contains("1 of 2 readings accepted")
        && bad.standardOutput.contains("reading 1 refused: humidity 101.0 % is outside 0…100 %"),
      "\(bad.standardOutput)\(bad.standardError)"
    )
    let withSession = try await cli.run(["readings", "upload", "\(demo)/board-walk-2024-01-15.csv", "--token", "bdt_nope"])
    #expect(withSession.status != 0 && withSession.standardError.contains("[unauthenticated]"), "\(withSession.standardError)")
    let stats = try await cli.run(["readings", "stats", "--measure", "pm2.5", "--from", "2024-01-15", "--to", "2024-01-16"])
    #expect(stats.standardOutput.hasPrefix("count 480  min "), "\(stats.standardOutput)\(stats.standardError)")
    let latest = try await cli.run(["readings", "latest", deviceID])
    #expect(latest.standardOutput.contains("humidity  55.00 %  at 2024-01-15T13:00:30Z"), "\(latest.standardOutput)")

    let notAdmin = try await cli.run(["reference", "import", "\(demo)/air-quality-stations.csv", "--catalogue"])
    #expect(notAdmin.status != 0 && notAdmin.standardError.contains("[permissionDenied]"), "\(notAdmin.standardError)")
    let catalogue = try await cli.run(["reference", "import", "\(demo)/air-quality-stations.csv", "--catalogue", "--session", adminSession])
    #expect(catalogue.standardOutput == "read 6, added 6, skipped 0\n", "\(catalogue.standardOutput)\(catalogue.standardError)")
    let weather = try await cli.run(
      ["reference", "import", "\(demo)/weather-stations.json", "--catalogue", "--network", "weather", "--session", adminSession])
    #expect(weather.standardOutput == "read 3, added 3, skipped 0\n", "\(weather.standardOutput)\(weather.standardError)")
    let values = try await cli.run(["reference", "import", "\(demo)/measurements-2024-01-15.csv", "--measurements", "--session", adminSession])
    #expect(values.standardOutput.hasPrefix("read 166, added 166, skipped 2\n"), "\(values.standardOutput)\(values.standardError)")
    let stations = try await cli.run(["reference", "stations", "--latitude", "45.4719", "--longitude", "9.1879", "--radius", "1000"])
    #expect(stations.standardOutput.contains("2001  Temperatura (°C) → temperature  at Milano Brera, Milano"), "\(stations.standardOutput)")
    let compared = try await cli.run(
      [
        "reference", "compare", "--sensor", "5505", "--measure", "pm2.5", "--from", "2024-01-15T08:00:00Z", "--to", "2024-01-15T12:00:00Z",
        "--points", "4",
      ])
    #expect(
      compared.standardOutput.split(separator: "\n").count == 7 && compared.standardOutput.contains("r = ")
        && compared.standardOutput.contains("the station's values are hourly means, compared with your mean over the same span"),
      "\(compared.standardOutput)\(compared.standardError)"
    )

    let simulated = try await cli.run(
      ["simulate-board", "--token-file", tokenFile, "--latitude", "45.4642", "--longitude", "9.19", "--count", "3", "--interval", "0"])
    #expect(
      simulated.standardOutput.hasSuffix("3 of 3 readings accepted: 3 stored, 0 already stored\n"),
      "\(simulated.standardOutput)\(simulated.standardError)"
    )
    let listed = try await cli.run(["devices", "list"])
    #expect(listed.standardOutput == "\(deviceID)  Bike board  yours, private\n", "\(listed.standardOutput)")
    let exported = try await cli.run(["readings", "export", deviceID, "--from", "2024-01-15", "--to", "2024-01-16", "--output", cli.file("walk.csv")])
    #expect(exported.standardOutput == "wrote 481 readings to \(cli.file("walk.csv"))\n", "\(exported.standardOutput)\(exported.standardError)")
  }

  /// An admin's taxi and driver; the driver placed, available and accepting from `driver jobs`;
  /// the passenger (phone verified from the outbox, a card on file) calls a taxi by address and
  /// watches it allocated, is driven and charged; the roles hold.
  static func taxis(_ cli: CommandLine, adminSession: String) async throws {
    let taxi = try await cli.run(["admin", "taxis", "add", "--code", "MI-T1", "--plate", "TT111TT", "--session", adminSession])
    #expect(taxi.standardOutput.hasPrefix("MI-T1 TT111TT, 4 seats: unavailable"), "\(taxi.standardOutput)\(taxi.standardError)")
    let driver = try await cli.run(
      [
        "admin", "drivers", "add", "--password-stdin", "--email", "dino@example.com", "--first-name", "Dino", "--taxi", "MI-T1",
        "--session", adminSession,
      ],
      standardInput: "a-driver-password-1\n"
    )
    #expect(driver.standardOutput.contains("driver dino@example.com"), "\(driver.standardOutput)\(driver.standardError)")
    let drivers = try await cli.run(["admin", "drivers", "--session", adminSession])
    #expect(drivers.standardOutput.contains("dino@example.com Dino") && drivers.standardOutput.contains("taxi MI-T1"), "\(drivers.standardOutput)")
    let driverSession = cli.file("driver-session.json")
    #expect(
      try await cli.run(
        ["login", "--email", "dino@example.com", "--password-stdin", "--session", driverSession],
        standardInput: "a-driver-password-1\n"
      ).status == 0
    )
    _ = try await cli.run(["driver", "position", "--latitude", "45.4719", "--longitude", "9.1879", "--session", driverSession])
    let available = try await cli.run(["driver", "available", "--session", driverSession])
    #expect(available.standardOutput.contains("waiting, zone C, #1 in the queue"), "\(available.standardOutput)\(available.standardError)")

    // The passenger is neither a driver nor the control room.
    let notDriver = try await cli.run(["driver", "available"])
    #expect(notDriver.status != 0 && notDriver.standardError.contains("[permissionDenied]"), "\(notDriver.standardError)")
    let notAdmin = try await cli.run(["admin", "monitor"])
    #expect(notAdmin.status != 0 && notAdmin.standardError.contains("[permissionDenied]"), "\(notAdmin.standardError)")
    let unready = try await cli.run(["taxi", "request", "--address", "Piazza del Duomo 1"])
    #expect(unready.standardError.contains("a verified phone"), "\(unready.standardError)")
    let verified = try await cli.run(["phone", "verify", "--from-outbox", "--admin-session", adminSession])
    #expect(verified.status == 0, "\(verified.standardError)")

    // The driver's stream shows the offer (also one made before it opened) and accepts it.
    async let jobs = cli.run(["driver", "jobs", "--accept", "--count", "1", "--session", driverSession])
    let request = try await cli.run([
      "taxi", "request", "--address", "piazza del duomo 1, Milano", "--to-address", "Piazza Duca d'Aosta 1", "--watch",
    ])
    #expect(request.status == 0, "\(request.standardError)")
    #expect(request.standardOutput.contains("allocated: taxi MI-T1 (TT111TT)"), "\(request.standardOutput)")
    let rideID = String(try #require(request.standardOutput.split(separator: ":").first))
    let code = String(try #require(request.standardOutput.components(separatedBy: "your code ").last?.prefix(4)))
    let accepted = try await jobs
    #expect(
      accepted.standardOutput.contains("OFFER ") && accepted.standardOutput.contains("accepted: ride \(rideID), passenger Rita"),
      "\(accepted.standardOutput)"
    )
    let monitor = try await cli.run(["admin", "monitor", "--session", adminSession])
    #expect(monitor.standardOutput.contains("allocated: \(rideID) with taxi MI-T1"), "\(monitor.standardOutput)")

    let wrong = try await cli.run(["driver", "start", rideID, "--code", code == "0000" ? "1111" : "0000", "--session", driverSession])
    #expect(wrong.status != 0 && wrong.standardError.contains("[permissionDenied]"), "\(wrong.standardError)")
    #expect(try await cli.run(["driver", "start", rideID, "--code", code, "--session", driverSession]).status == 0)
    // Ten minutes later (dispatch's test clock: a fix 2.6 km from the last one a moment ago
    // would be refused as too fast), at the destination.
    try await cli.suite.advanceClock(of: "dispatch", by: 600)
    let moved = try await cli.run(["driver", "position", "--latitude", "45.48558", "--longitude", "9.20320", "--session", driverSession])
    #expect(moved.status == 0 && !moved.standardOutput.contains("not used"), "\(moved.standardOutput)\(moved.standardError)")
    let completed = try await cli.run(["driver", "complete", rideID, "--session", driverSession])
    #expect(
      completed.standardOutput.contains("completed") && completed.standardOutput.contains("km driven, fare "),
      "\(completed.standardOutput)\(completed.standardError)"
    )
    let history = try await cli.run(["taxi", "history"])
    #expect(
      history.standardOutput.contains("\(rideID): completed") && history.standardOutput.contains("on the card ending 4242"),
      "\(history.standardOutput)"
    )
    let zones = try await cli.run(["admin", "zones"])
    #expect(
      zones.standardOutput.split(separator: "\n").count == 10 && zones.standardOutput.contains("Tariff: 3.50 EUR + 1.20 EUR/km"),
      "\(zones.standardOutput)"
    )
  }

  /// An admin's shop, deal, place and route offer; a passenger here by Milano Cadorna offered the
  /// deal once, shown the place and the nearest station with its offer; bad coordinates refused.
  static func geoOffers(_ cli: CommandLine, adminSession: String) async throws {
    let shop = try await cli.run(
      [
        "admin", "shops", "create", "--name", "Edicola Cadorna", "--latitude", "45.4681", "--longitude", "9.1756", "--station", "MI_CADORNA",
        "--session", adminSession,
      ])
    #expect(shop.standardOutput.hasPrefix("Edicola Cadorna  45.46810, 9.17560 at MI_CADORNA  [sh_"), "\(shop.standardOutput)\(shop.standardError)")
    let shopID = try #require(shop.standardOutput.split(separator: "[").last?.split(separator: "]").first)
    let deal = try await cli.run(
      [
        "admin", "deals", "create", "--shop", String(shopID), "--description", "Two papers for one", "--discount", "50",
        "--session", adminSession,
      ])
    #expect(deal.standardOutput.hasPrefix("50% off at Edicola Cadorna: Two papers for one"), "\(deal.standardOutput)\(deal.standardError)")
    let place = try await cli.run(
      [
        "admin", "places", "create", "--name", "Chiostro di Cadorna", "--category", "monument", "--latitude", "45.4685", "--longitude", "9.1760",
        "--session", adminSession,
      ])
    #expect(place.status == 0, "\(place.standardError)")
    let offer = try await cli.run(
      [
        "admin", "route-offers", "create", "--from", "MI_CADORNA", "--line", "S9", "--title", "Cadorna weekends", "--discount", "12",
        "--session", adminSession,
      ])
    #expect(
      offer.standardOutput.hasPrefix("  12% off: Cadorna weekends (Milano Cadorna → any station on the S9"),
      "\(offer.standardOutput)\(offer.standardError)"
    )
    let passenger = try await cli.run(["admin", "shops", "create", "--name", "x", "--latitude", "45", "--longitude", "9"])
    #expect(passenger.status != 0 && passenger.standardError.contains("[permissionDenied]"), "\(passenger.standardError)")

    let here = try await cli.run(["here", "--latitude", "45.4681", "--longitude", "9.1757", "--accuracy", "10"])
    let text = here.standardOutput
    #expect(text.contains("50% off at Edicola Cadorna, 8 m: Two papers for one"), "\(text)\(here.standardError)")
    #expect(
      text.contains("Milano Cadorna [MI_CADORNA]") && text.contains("https://www.google.com/maps/dir/?api=1&origin=45.468100%2C9.175700"),
      "\(text)"
    )
    #expect(text.contains("12% off: Cadorna weekends") && text.contains("Chiostro di Cadorna (monument)"), "\(text)")
    let again = try await cli.run(["here", "--latitude", "45.4681", "--longitude", "9.1757"])
    #expect(again.standardOutput.hasPrefix("No new deals here."), "\(again.standardOutput)")
    let nearest = try await cli.run(["nearest", "--latitude", "45.4642", "--longitude", "9.1900", "--count", "2"])
    #expect(nearest.standardOutput.hasPrefix("  Milano Cadorna [MI_CADORNA], 1.2 km, 15 min on foot"), "\(nearest.standardOutput)")
    #expect(try await cli.run(["location"]).standardOutput.hasPrefix("45.468100, 9.175700 (±0 m) at "))
    #expect(try await cli.run(["location", "forget"]).standardOutput == "forgotten\n")
    let bad = try await cli.run(["deals", "--latitude", "95", "--longitude", "9"])
    #expect(bad.status != 0 && bad.standardError.contains("latitude: 95.0 is not a latitude"), "\(bad.standardError)")
  }

  /// A zone ticket quoted, bought (its key again: the same purchase), shown in the wallet and
  /// the history, validated once by an admin and refused the second time; a subscription added,
  /// edited and summed up.
  static func ticketsAndSubscriptions(_ cli: CommandLine, adminSession: String) async throws {
    let card = try await cli.run(
      ["cards", "add", "--expiry", "12/2035"],
      environment: ["BINARIO_CARD_NUMBER": "4242424242424242", "BINARIO_CARD_SECURITY_CODE": "123"]
    )
    #expect(card.status == 0, "\(card.standardError)")
    let quote = try await cli.run(["tickets", "quote", "--zones", "Mi1-Mi3"])
    #expect(
      quote.standardOutput.contains("1 × Zone ticket Mi1-Mi3") && quote.standardOutput.contains("total 2.20 EUR"),
      "\(quote.standardOutput)\(quote.standardError)"
    )
    let quoteID = try #require(quote.standardOutput.split(separator: "\n").last?.split(separator: " ").dropFirst().first)
    let bought = try await cli.run(["tickets", "buy", String(quoteID), "--key", "cli-key-1"])
    #expect(bought.standardOutput.hasPrefix("paid 2.20 EUR with the card ending 4242"), "\(bought.standardOutput)\(bought.standardError)")
    let again = try await cli.run(["tickets", "buy", String(quoteID), "--key", "cli-key-1"])
    #expect(again.standardOutput == bought.standardOutput)
    let ticketID = try #require(bought.standardOutput.split(separator: "[").last?.split(separator: "]").first)
    let wallet = try await cli.run(["tickets", "wallet"])
    #expect(wallet.standardOutput.contains("[\(ticketID)]") && wallet.standardOutput.contains("refundable"), "\(wallet.standardOutput)")
    #expect(try await cli.run(["tickets", "history"]).standardOutput.contains("2.20 EUR (card 4242)"))
    let shown = try await cli.run(["tickets", "show", String(ticketID)])
    let code = try #require(shown.standardOutput.split(separator: "\n").last?.split(separator: " ").last)
    let validated = try await cli.run(["tickets", "validate", String(code), "--session", adminSession])
    #expect(validated.standardOutput.hasPrefix("valid: ride 1 until "), "\(validated.standardOutput)\(validated.standardError)")
    let reused = try await cli.run(["tickets", "validate", String(code), "--session", adminSession])
    #expect(reused.status != 0 && reused.standardError.contains("already used") && reused.standardError.contains("[failedPrecondition]"))

    // A journey with a change, as `trips search` prints it to price: one ticket, both trains.
    let search = try await cli.run(["trips", "search", "--from", "MALPENSA_T1", "--to", "BERGAMO", "--limit", "10"])
    let priceIt = try #require(
      search.standardOutput.split(separator: "\n").first { $0.contains("price it: binario tickets quote --leg") && $0.contains(" --leg ") },
      "\(search.standardOutput)"
    )
    let legs = priceIt.split(separator: " ").drop { $0 != "quote" }.dropFirst().map(String.init)
    #expect(legs.count == 4, "\(priceIt)")
    let journeyQuote = try await cli.run(["tickets", "quote"] + legs)
    #expect(
      journeyQuote.standardOutput.contains("Malpensa Aeroporto T1 → Bergamo via Milano Centrale"),
      "\(journeyQuote.standardOutput)\(journeyQuote.standardError)"
    )
    let journeyQuoteID = try #require(journeyQuote.standardOutput.split(separator: "\n").last?.split(separator: " ").dropFirst().first)
    let journeyTicket = try await cli.run(["tickets", "buy", String(journeyQuoteID), "--key", "cli-key-2"])
    // Both trains under the one ticket: Malpensa to Milano, then Milano to Bergamo.
    let trains = journeyTicket.standardOutput.split(separator: "\n").filter { $0.contains("  train ") }
    #expect(trains.count == 2, "\(journeyTicket.standardOutput)\(journeyTicket.standardError)")
    #expect(trains.first?.contains("Malpensa Aeroporto T1 → ") == true && trains.last?.contains("Milano Centrale → ") == true)

    let added = try await cli.run(
      [
        "subscriptions", "add", "--service", "Spotify", "--plan", "student", "--start", "2026-01-10", "--period", "quarterly",
        "--price", "17.97", "--category", "music",
      ])
    #expect(added.status == 0, "\(added.standardError)")
    let subscriptionID = try #require(added.standardOutput.split(separator: "[").last?.split(separator: "]").first)
    let home = try await cli.run(["subscriptions", "home"])
    // 17.97 a quarter: 71.88 a year, 5.99 a month.
    #expect(home.standardOutput.contains("5.99 EUR a month, 71.88 EUR a year"), "\(home.standardOutput)")
    let edited = try await cli.run(["subscriptions", "edit", String(subscriptionID), "--period", "monthly", "--price", "5.99"])
    #expect(edited.standardOutput.contains("5.99 EUR monthly"), "\(edited.standardOutput)\(edited.standardError)")
    let stats = try await cli.run(["subscriptions", "stats"])
    #expect(stats.standardOutput.contains("music  1 (100.00 %)  5.99 EUR a month  100.00 %"), "\(stats.standardOutput)")

    // A gym paid by hand, started a week ago: due today; paid from here, listed, then paused.
    let today = romeDate(daysFromToday: 0)
    let gym = try await cli.run(
      [
        "subscriptions", "add", "--service", "Palestra", "--custom-service", "--start", romeDate(daysFromToday: -7),
        "--period", "weekly", "--price", "5", "--currency", "USD", "--category", "other", "--auto-renew", "off",
      ])
    let gymID = try #require(gym.standardOutput.split(separator: "[").last?.split(separator: "]").first.map(String.init))
    #expect(gym.standardOutput.contains("due since \(today) (0 days)"), "\(gym.standardOutput)\(gym.standardError)")
    var gymHome = try await cli.run(["subscriptions", "home"])
    #expect(gymHome.standardOutput.contains("To pay:\n  \(today) (today)  Palestra  your share 5.00 USD"), "\(gymHome.standardOutput)")
    #expect(gymHome.standardOutput.contains("no exchange rate for USD"), "\(gymHome.standardOutput)")
    let paid = try await cli.run(["subscriptions", "pay", gymID])
    #expect(
      paid.standardOutput.contains("paid \(today) (5.00 USD); next \(romeDate(daysFromToday: 7))"),
      "\(paid.standardOutput)\(paid.standardError)"
    )
    let payments = try await cli.run(["subscriptions", "payments", gymID])
    #expect(payments.standardOutput.contains("  \(today)  paid \(today)  5.00 USD  by "), "\(payments.standardOutput)")
    let rates = cli.file("eurofxref.csv")
    try "Date, USD, JPY, \n27 November 2026, 1.0512, 162.39, \n".write(toFile: rates, atomically: true, encoding: .utf8)
    let loaded = try await cli.run(["admin", "exchange-rates", "load", rates, "--session", adminSession])
    #expect(
      loaded.standardOutput.contains("loaded 2 currencies, the reference rates of 2026-11-27"),
      "\(loaded.standardOutput)\(loaded.standardError)"
    )
    // 5.99 EUR a month and 5 USD a week (260 a year): 71.88 + 260 / 1.0512 = 319.22 EUR a year, 26.60 a month.
    gymHome = try await cli.run(["subscriptions", "home"])
    #expect(gymHome.standardOutput.contains("all together 26.60 EUR a month, 319.22 EUR a year (rates of 2026-11-27)"), "\(gymHome.standardOutput)")
    let paused = try await cli.run(["subscriptions", "pause", gymID])
    #expect(paused.standardOutput.contains("paused since \(today)"), "\(paused.standardOutput)\(paused.standardError)")

    // Out as Wallos's JSON, and a Wallos export in: one row added, one refused by its line.
    let exported = cli.file("subscriptions.json")
    let export = try await cli.run(["subscriptions", "export", "--format", "wallos-json", "--output", exported])
    #expect(export.standardOutput.contains("2 subscriptions written"), "\(export.standardOutput)\(export.standardError)")
    #expect(try String(contentsOfFile: exported, encoding: .utf8).contains("\"Price\":\"$5.00\""))
    let wallos = cli.file("wallos.csv")
    try """
    Name,Payment Cycle,Next Payment,Renewal,Category,Payment Method,Paid By,Price,Notes,URL,State,Notifications,Cancellation Date,Active
    Tidal,Monthly,\(romeDate(daysFromToday: 10)),Automatic,Music,PayPal,Me,€10.99,,,Enabled,Enabled,,Yes
    Vultr,Every 2 Weeks,\(romeDate(daysFromToday: 3)),Automatic,Servers,Card,Me,$5,,,Enabled,Enabled,,Yes

    """.write(toFile: wallos, atomically: true, encoding: .utf8)
    let imported = try await cli.run(["subscriptions", "import", wallos])
    #expect(imported.standardOutput.contains("1 subscription imported"), "\(imported.standardOutput)\(imported.standardError)")
    #expect(
      imported.standardOutput.contains("line 3 (Vultr): Binario counts weekly, monthly, quarterly or yearly payments"),
      "\(imported.standardOutput)"
    )
    let reimported = try await cli.run(["subscriptions", "import", wallos])
    #expect(reimported.standardOutput.contains("1 subscription imported"), "\(reimported.standardOutput)")
    let listed = try await cli.run(["subscriptions", "list"])
    #expect(listed.standardOutput.components(separatedBy: "Tidal").count == 2, "\(listed.standardOutput)")
  }
}

extension Array where Element == String {
  /// `trips ...` as the admin's command: `admin trips ...`.
  var withAdminPrefix: [String] { ["admin"] + self }
}

struct CommandLine {
  let suite: RunningSuite

  var session: String { self.file("session.json") }

  func file(_ name: String) -> String {
    self.suite.folder.appendingPathComponent("cli").appendingPathComponent(name).path
  }

  func run(
    _ arguments: [String],
    environment: [String: String] = [:],
    standardInput: String = ""
  ) async throws -> CommandRun {
    let settings = [
      "BINARIO_GATEWAY": "localhost:\(self.suite.gatewayPort)",
      "BINARIO_CA": self.suite.caFile,
      "BINARIO_SESSION": self.session,
    ]
    return try await CommandRun.run(
      "binario",
      arguments,
      environment: settings.merging(environment) { $1 },
      standardInput: standardInput
    )
  }
}
