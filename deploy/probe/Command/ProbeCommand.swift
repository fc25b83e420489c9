import ArgumentParser
import NIOCore
import NIOHTTP1
import NIOPosix

/// `binario-probe`: asks a process's `/livez` or `/readyz` and exits 0 only on HTTP 200.
///
/// For container health checks (compose's `healthcheck`, Docker's `HEALTHCHECK`), so the runtime
/// image needs no curl; Kubernetes probes use their own `httpGet` instead.
public struct ProbeCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "binario-probe",
    abstract: "Exit 0 if a Binario process's health endpoint answers 200, 1 otherwise.",
    discussion: """
      Example, in a container: binario-probe http://127.0.0.1:9101/readyz
      """
  )

  @Argument(help: ArgumentHelp("http://host:port/path of the endpoint.", valueName: "url"))
  var url: String

  @Option(help: "Seconds to wait for the whole exchange.")
  var timeout: Double = 3

  public func validate() throws {
    _ = try ProbeTarget(parsing: url)
    guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout must be between 0 and 60 seconds") }
  }

  public init() {}

  public func run() async throws {
    let target = try ProbeTarget(parsing: url)
    do {
      let status = try await Self.status(of: target, timeout: .nanoseconds(Int64(timeout * 1e9)))
      print("\(url): \(status.code) \(status.reasonPhrase)")
      if status != .ok { throw ExitCode.failure }
    } catch let exit as ExitCode {
      throw exit
    } catch {
      print("\(url): no answer (\(error))")
      throw ExitCode.failure
    }
  }

  /// The status of `GET target.path`, or an error when nothing answered within `timeout`.
  static func status(of target: ProbeTarget, timeout: TimeAmount) async throws -> HTTPResponseStatus {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .connectTimeout(timeout)
      .connect(host: target.host, port: target.port) { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHTTPClientHandlers()
          return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
        }
      }
    let deadline = channel.channel.eventLoop.scheduleTask(in: timeout) {
      channel.channel.close(promise: nil)
    }
    defer { deadline.cancel() }
    return try await channel.executeThenClose { inbound, outbound in
      var headers = HTTPHeaders()
      headers.add(name: "host", value: "\(target.host):\(target.port)")
      headers.add(name: "connection", value: "close")
      try await outbound.write(.head(HTTPRequestHead(version: .http1_1, method: .GET, uri: target.path, headers: headers)))
      try await outbound.write(.end(nil))
      for try await part in inbound {
        if case .head(let head) = part { return head.status }
      }
      throw ProbeError("the connection closed before an answer")
    }
  }
}

/// Where to probe, from an `http://host:port/path` URL (no TLS: health endpoints are plain HTTP).
struct ProbeTarget {
  var host: String
  var port: Int
  var path: String

  init(parsing url: String) throws {
    guard url.hasPrefix("http://") else { throw ValidationError("the url must start with http://, got \(url)") }
    let rest = url.dropFirst("http://".count)
    let authority = rest.prefix { $0 != "/" }
    self.path = rest.count > authority.count ? String(rest.dropFirst(authority.count)) : "/"
    guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]),
      (1 ... 65535).contains(port)
    else {
      throw ValidationError("the url must name a port, e.g. http://127.0.0.1:9101/readyz, got \(url)")
    }
    self.port = port
    var host = authority[..<colon]
    if host.first == "[", host.last == "]" { host = host.dropFirst().dropLast() }  // [::1]
    self.host = String(host)
    guard !self.host.isEmpty else { throw ValidationError("the url has no host: \(url)") }
  }
}

struct ProbeError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
