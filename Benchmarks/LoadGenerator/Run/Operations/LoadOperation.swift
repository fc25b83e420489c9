import BinarioProto
import GRPCCore
import SwiftProtobuf
import Synchronization

/// One thing a person of the five apps does, as one or more calls through a door: what the mix
/// names and the report measures (from its intended start to its last answer).
public struct LoadOperation: Sendable {
  /// What the mix file calls it: `departures board`, `ticket purchase`, ...
  public let name: String
  /// The app whose people do it: Trenord, MOQA, myTaxi, SubscribeME, Trip Itinerary (and the
  /// admin's console).
  public let app: String
  let perform: @Sendable (LoadContext) async throws -> Void

  init(_ name: String, app: String, perform: @escaping @Sendable (LoadContext) async throws -> Void) {
    self.name = name
    self.app = app
    self.perform = perform
  }

  /// Every operation the generator knows, by name.
  public static let catalogue: [String: LoadOperation] = Dictionary(
    uniqueKeysWithValues: (trenord + moqa + myTaxi + subscribeME + tripItinerary + everyApp).map { ($0.name, $0) }
  )
}

/// What an operation runs with: the door, the cast, and the state operations share.
struct LoadContext: Sendable {
  let door: any Door
  let cast: Cast
  /// Who has a taxi ride open (the cast's, shared by every door).
  var taxis: TaxiDesk { cast.taxis }

  var anyTraveller: Traveller { cast.travellers.randomElement()! }

  /// `request` to `method` as `person` (signed in again if their token ran out).
  func call<Method: CallableMethod>(_ method: Method.Type, _ request: Method.Input, as person: Person) async throws -> Method.Output {
    try await person.call(through: door) { try await door.call(method, request, as: $0) }
  }
}

/// A generated method namespace (`Binario_Identity_V1_Identity.Method.Login`): its descriptor and
/// message types, so a call's types follow from the method (`Methods.swift` lists those used).
protocol CallableMethod {
  associatedtype Input: Message & Sendable
  associatedtype Output: Message & Sendable
  static var descriptor: MethodDescriptor { get }
}

extension Door {
  func call<Method: CallableMethod>(_ method: Method.Type, _ request: Method.Input, as caller: Caller) async throws -> Method.Output {
    try await unary(method.descriptor, request, as: caller, answer: Method.Output.self)
  }
}

/// A fresh idempotency key: every creating write the generator makes carries one, as apps do.
func newKey() -> String { "load-\(UInt64.random(in: 0 ... .max))" }
