import BinarioDevCertificates
import BinarioProto
import BinarioTestSupport
import BinarioTransport
import Foundation
import GRPCCore
import Testing

/// A network partition: scheduling runs in a network namespace of its own, joined to the host by
/// a veth pair, while identity, ticketing and the gateway run on the host and call it across the
/// link. The link is cut (every packet dropped both ways: no reset, no refusal) and restored.
/// While it is cut, every call that needs scheduling must end within its caller's deadline
/// (`UNAVAILABLE` once the dead connection is found, `DEADLINE_EXCEEDED` for a call caught on it)
/// and nothing may hang; once it is restored, everything works again without a restart.
///
/// Every process runs with a one-second keepalive (`--keepalive-interval 1 --keepalive-timeout 1`),
/// so that a dead connection is found in about two seconds.
@Suite("A network partition", .serialized, .enabled(if: NetworkNamespace.isAvailable, "network namespaces need root"), .timeLimit(.minutes(3)))
struct PartitionTests {
  typealias Scheduling = Binario_Scheduling_V1_Scheduling.Client<BinarioClientTransport>
  typealias Tickets = Binario_Ticketing_V1_Tickets.Client<BinarioClientTransport>

  static let deadline = Duration.seconds(4)
  /// What a call may take beyond its deadline before it counts as hanging.
  static let margin = Duration.seconds(2)

  @Test func callersAnswerWithinTheirDeadlineAndRecover() async throws {
    let namespace = try NetworkNamespace(tag: Int(getpid() % 10_000), subnet: Int(getpid() % 250) + 1)
    defer { namespace.remove() }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("binario-partition-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let certificates = folder.appendingPathComponent("certs")
    _ = try DevCertificateSet.write(to: certificates)
    func flags(_ name: String, host: String = "127.0.0.1") -> [String] {
      [
        "--host", host, "--port", "0",
        "--tls-certificate", certificates.appendingPathComponent("\(name).pem").path,
        "--tls-private-key", certificates.appendingPathComponent("\(name).key").path,
        "--tls-trusted-ca", certificates.appendingPathComponent("ca.pem").path,
        "--data-directory", folder.appendingPathComponent("data/\(name)").path,
        "--metrics-port", "off", "--keepalive-interval", "1", "--keepalive-timeout", "1",
      ]
    }

    // Identity on every address: the host's loopback for the gateway and ticketing, the veth
    // pair's host end for scheduling in its namespace.
    let identity = try await ServiceProcess.start(
      "identity",
      arguments: flags("identity", host: "0.0.0.0"),
      environment: ["BINARIO_ADMIN_EMAIL": RunningSuite.adminEmail, "BINARIO_ADMIN_PASSWORD": RunningSuite.adminPassword]
    )
    let scheduling = try await ServiceProcess.start(
      "scheduling",
      arguments: flags("scheduling", host: namespace.address) + [
        "--identity-address", "\(namespace.hostAddress):\(identity.port)", "--timetable-folder", RunningSuite.demoNetworkFolder.path,
      ],
      networkNamespace: namespace.name
    )
    let schedulingAddress = "\(namespace.address):\(scheduling.port)"
    let ticketing = try await ServiceProcess.start(
      "ticketing",
      arguments: flags("ticketing") + [
        "--identity-address", "127.0.0.1:\(identity.port)", "--scheduling-address", schedulingAddress,
        "--fare-table", RunningSuite.demoFareTable.path,
      ]
    )
    let gateway = try await ServiceProcess.start(
      "gateway",
      arguments: flags("gateway") + [
        "--grpc-port", "off", "--http-port", "off", "--tls-client-authentication", "none", "--rate-limit", "off",
        "--upstream", "identity=127.0.0.1:\(identity.port)", "--upstream", "scheduling=\(schedulingAddress)",
        "--upstream", "ticketing=127.0.0.1:\(ticketing.port)",
      ]
    )
    defer {
      for process in [gateway, ticketing, scheduling, identity] { process.kill() }
    }
    let transport = try BinarioClientTransport(
      host: "127.0.0.1",
      port: gateway.port,
      serverHostname: "localhost",
      tls: .client(trustRoots: .file(certificates.appendingPathComponent("ca.pem").path))
    )
    try await withGRPCClient(transport: transport) { client in
      try await Self.partitionAndHeal(
        namespace,
        Scheduling(wrapping: client),
        Tickets(wrapping: client),
        Binario_Identity_V1_Identity.Client(wrapping: client)
      )
    }
  }

  static func partitionAndHeal(
    _ namespace: NetworkNamespace,
    _ scheduling: Scheduling,
    _ tickets: Tickets,
    _ identity: Binario_Identity_V1_Identity.Client<BinarioClientTransport>
  ) async throws {
    let options = { () -> CallOptions in
      var options = CallOptions.defaults
      options.timeout = Self.deadline
      return options
    }()
    let admin = try await identity.signInAdmin()
    // Through the gateway to scheduling, and through ticketing (a station ticket's quote looks
    // its run up in scheduling).
    let board = try await scheduling.getDeparturesBoard(
      .with {
        $0.stationID = "MI_CENTRALE"
        $0.limit = 20
      },
      options: options
    )
    let departure = try #require(board.departures.first { $0.run.stops.count > 1 })
    let quote = Binario_Ticketing_V1_QuoteTicketRequest.with {
      $0.station = .with {
        $0.run = .with {
          $0.tripID = departure.run.run.tripID
          $0.serviceDate = departure.run.run.serviceDate
        }
        $0.fromStationID = departure.run.stops[0].station.stationID
        $0.toStationID = departure.run.stops[1].station.stationID
      }
      $0.passengers = 1
    }
    let calls: [(name: String, call: @Sendable () async throws -> Void)] = [
      ("gateway → scheduling", { _ = try await scheduling.listStations(.init(), options: options) }),
      ("gateway → ticketing → scheduling", { _ = try await tickets.quoteTicket(quote, metadata: bearer(admin), options: options) }),
    ]
    for (_, call) in calls { try await call() }

    try namespace.partition()
    // Every call ends within its deadline; once the keepalive has found the dead connection, the
    // answer is UNAVAILABLE.
    for (name, call) in calls {
      var answers: [RPCError.Code] = []
      var lastMessage = ""
      for _ in 0 ..< 8 {
        let (code, took, message) = await Self.timed(call)
        lastMessage = message
        #expect(took < Self.deadline + Self.margin, "\(name): a call took \(took) with a \(Self.deadline) deadline")
        let answer = try #require(code, "\(name): a call succeeded across the partition")
        answers.append(answer)
        if answer == .unavailable { break }
      }
      #expect(answers.last == .unavailable, "\(name): \(answers)")
      #expect(answers.allSatisfy { $0 == .unavailable || $0 == .deadlineExceeded }, "\(name): \(answers)")
      // The caller hears which service is unreachable, not its address nor "the server".
      #expect(lastMessage.contains("scheduling") && !lastMessage.contains("10.213.") && !lastMessage.contains("server"), "\(name): \(lastMessage)")
      print("partition: \(name): \(answers.map { "\($0)" }.joined(separator: ", ")) (\"\(lastMessage)\")")
    }

    try namespace.heal()
    // Everything works again, without a restart (the reconnect backoff is at most a few seconds).
    for (name, call) in calls {
      var attempts = 0
      var recovered = false
      let started = ContinuousClock.now
      while !recovered, attempts < 30 {
        attempts += 1
        recovered = await Self.timed(call).code == nil
        if !recovered { try await Task.sleep(for: .milliseconds(500)) }
      }
      #expect(recovered, "\(name): still failing after the link came back")
      print("partition: \(name): served again \(ContinuousClock.now - started) after the link came back")
    }
  }

  /// The call's error code (`nil`: it succeeded) and message, and how long it took.
  static func timed(_ call: @Sendable () async throws -> Void) async -> (code: RPCError.Code?, took: Duration, message: String) {
    let started = ContinuousClock.now
    do {
      try await call()
      return (nil, ContinuousClock.now - started, "")
    } catch let error as RPCError {
      return (error.code, ContinuousClock.now - started, error.message)
    } catch {
      return (.unknown, ContinuousClock.now - started, "\(error)")
    }
  }
}
