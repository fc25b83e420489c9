import Foundation

/// A network namespace of its own on this machine, joined to the host's by a veth pair with a
/// /30 of addresses: a process started in it (``ServiceProcess/start(_:arguments:environment:listeners:events:networkNamespace:)``)
/// is another host as far as the network goes, and ``partition()`` cuts the link so that packets
/// vanish both ways (a black hole, as a failed switch or a dropped route makes: no reset, no
/// refusal), until ``heal()``.
///
/// Needs root (`ip netns`, `iptables`), as this machine and CI run. ``remove()`` deletes the
/// namespace and its veth pair.
public final class NetworkNamespace: Sendable {
  public let name: String
  /// The host side's address, and the namespace's.
  public let hostAddress: String
  public let address: String
  private let hostLink: String
  private let link: String

  /// Whether namespaces can be made here.
  public static var isAvailable: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") }

  /// Makes namespace `binario-<tag>` with veth pair `bh<tag>`/`bn<tag>` on `10.213.<subnet>.0/30`.
  public init(tag: Int, subnet: Int) throws {
    self.name = "binario-\(tag)"
    self.hostLink = "bh\(tag)"
    self.link = "bn\(tag)"
    self.hostAddress = "10.213.\(subnet).1"
    self.address = "10.213.\(subnet).2"
    try? Self.run(["netns", "del", self.name])  // a namespace left by a killed run
    try Self.run(["netns", "add", self.name])
    do {
      try Self.run(["link", "add", self.hostLink, "type", "veth", "peer", "name", self.link])
      try Self.run(["link", "set", self.link, "netns", self.name])
      try Self.run(["addr", "add", "\(self.hostAddress)/30", "dev", self.hostLink])
      try Self.run(["link", "set", self.hostLink, "up"])
      try Self.run(["netns", "exec", self.name, "ip", "addr", "add", "\(self.address)/30", "dev", self.link])
      try Self.run(["netns", "exec", self.name, "ip", "link", "set", self.link, "up"])
      try Self.run(["netns", "exec", self.name, "ip", "link", "set", "lo", "up"])
    } catch {
      self.remove()
      throw error
    }
  }

  /// Every packet between the host and the namespace is dropped, both ways (by the namespace's
  /// own firewall, so nothing of the host's changes).
  public func partition() throws {
    try self.firewall(["-A", "INPUT", "-i", self.link, "-j", "DROP"])
    try self.firewall(["-A", "OUTPUT", "-o", self.link, "-j", "DROP"])
  }

  /// The link carries packets again.
  public func heal() throws {
    try self.firewall(["-F"])
  }

  public func remove() {
    try? Self.run(["netns", "del", self.name])
    try? Self.run(["link", "del", self.hostLink])
  }

  private func firewall(_ arguments: [String]) throws {
    try Self.run(["netns", "exec", self.name, "iptables"] + arguments)
  }

  private static func run(_ arguments: [String], program: String = "/usr/sbin/ip") throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      throw ServiceProcess.Failure(description: "\(program) \(arguments.joined(separator: " ")): \(message)")
    }
  }
}
