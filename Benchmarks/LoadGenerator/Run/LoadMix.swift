import Foundation

/// What people do and how often, relative to one another: the file an operator edits
/// (`Benchmarks/LoadGenerator/mix.json`, its reasons in `docs/capacity.md`). The generator turns a
/// total rate into each operation's rate by its share.
public struct LoadMix: Codable, Sendable {
  public struct Operation: Codable, Sendable {
    /// An operation of ``LoadOperation/catalogue``.
    public var name: String
    /// Its weight: an operation of share 20 runs twice as often as one of share 10.
    public var share: Double
    /// Where the share comes from (the apps' scenarios): read by people, not the generator.
    public var why: String?

    public init(name: String, share: Double, why: String?) {
      self.name = name
      self.share = share
      self.why = why
    }
  }

  /// Operations started per second, all together, unless the command line says otherwise.
  public var rate: Double
  /// Travellers made for the run: each owns a board, a subscription and a trip, and follows a train.
  public var travellers: Int
  /// Taxi drivers made for the run, each with a taxi in the centre.
  public var drivers: Int
  /// Travellers keeping their notification stream open the whole run (the apps do while open).
  public var notificationStreams: Int
  public var operations: [Operation]

  public init(rate: Double, travellers: Int, drivers: Int, notificationStreams: Int, operations: [Operation]) {
    self.rate = rate
    self.travellers = travellers
    self.drivers = drivers
    self.notificationStreams = notificationStreams
    self.operations = operations
  }

  /// Reads and checks the mix in `file`; a refusal names the field at fault.
  public static func read(_ file: URL) throws -> LoadMix {
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw MixError("\(file.path): cannot be read (\(error.localizedDescription))")
    }
    let mix: LoadMix
    do {
      mix = try JSONDecoder().decode(LoadMix.self, from: data)
    } catch let DecodingError.keyNotFound(key, context) {
      throw MixError("\(file.path): \(Self.path(context.codingPath + [key])) is missing")
    } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
      throw MixError("\(file.path): \(Self.path(context.codingPath)): \(context.debugDescription)")
    } catch let DecodingError.dataCorrupted(context) {
      throw MixError("\(file.path): \(context.codingPath.isEmpty ? "" : Self.path(context.codingPath) + ": ")\(context.debugDescription)")
    }
    try mix.check()
    return mix
  }

  /// Refuses what the generator cannot run, naming the field.
  public func check() throws {
    guard rate > 0 else { throw MixError("rate: \(rate) is not above 0") }
    guard travellers >= 1 else { throw MixError("travellers: \(travellers) is fewer than 1") }
    guard drivers >= 0 else { throw MixError("drivers: \(drivers) is below 0") }
    guard (0 ... travellers).contains(notificationStreams) else {
      throw MixError("notificationStreams: \(notificationStreams) is not between 0 and the \(travellers) travellers")
    }
    guard !operations.isEmpty else { throw MixError("operations: none listed") }
    var seen: Set<String> = []
    for (index, operation) in operations.enumerated() {
      guard let known = LoadOperation.catalogue[operation.name] else {
        let names = LoadOperation.catalogue.keys.sorted().joined(separator: ", ")
        throw MixError("operations[\(index)].name: \"\(operation.name)\" is not an operation the generator knows (\(names))")
      }
      guard seen.insert(operation.name).inserted else { throw MixError("operations[\(index)].name: \"\(operation.name)\" is listed twice") }
      guard operation.share > 0, operation.share.isFinite else {
        throw MixError("operations[\(index)].share: \(operation.share) is not above 0 (leave the operation out instead)")
      }
      if known.app == "myTaxi", drivers == 0, operation.name.hasPrefix("driver") {
        throw MixError("drivers: 0, but operations[\(index)] (\(operation.name)) needs drivers")
      }
    }
  }

  /// Each operation's rate when the total is `total` per second.
  public func rates(total: Double) -> [(operation: String, perSecond: Double)] {
    let shares = operations.reduce(0) { $0 + $1.share }
    return operations.map { ($0.name, total * $0.share / shares) }
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.reduce("") { path, key in
      if let index = key.intValue { return "\(path)[\(index)]" }
      return path.isEmpty ? key.stringValue : "\(path).\(key.stringValue)"
    }
  }
}

/// A mix refused, with the field at fault first.
public struct MixError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
