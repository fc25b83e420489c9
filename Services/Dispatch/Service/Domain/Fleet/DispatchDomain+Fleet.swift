import BinarioDomain
import Foundation

/// The fleet: taxis and their drivers, as the operators keep them.
extension DispatchDomain {
  /// A new taxi, not available until its driver says so. A driver named must be an account with
  /// the driver role, driving no other taxi.
  public func createTaxi(code rawCode: String, plate rawPlate: String, capacity: Int, driverUserID: String?) async throws -> Taxi {
    var check = InputValidation()
    let code = check.requiredText(rawCode.uppercased(), field: "taxi.code", what: "a taxi code", maxLength: 20)
    let plate = check.requiredText(rawPlate.uppercased(), field: "taxi.plate", what: "a plate", maxLength: 20)
    let seats = capacity == 0 ? 4 : capacity
    if !(1 ... 8).contains(seats) { check.fail("taxi.capacity", "a taxi seats 1 to 8 passengers") }
    try check.finish()
    let driver = try await checkedDriver(driverUserID)
    return try await commit { tx in
      if try tx.taxi(code: code) != nil { throw ServiceError.alreadyExists("there is a taxi \(code) already") }
      if let other = try tx.taxiCode(plate: plate) { throw ServiceError.alreadyExists("taxi \(other) has the plate \(plate)") }
      if let driver, let other = try tx.taxiCode(driverUserID: driver) {
        throw ServiceError.failedPrecondition("that driver drives taxi \(other); unlink them there first")
      }
      try tx.insertTaxi(Taxi(code: code, plate: plate, capacity: seats, driverUserID: driver))
      return try self.recordTaxi(tx, code)
    }
  }

  /// Changes a taxi's plate, capacity or driver (`""` unlinks; `nil` keeps).
  public func updateTaxi(code rawCode: String, plate rawPlate: String?, capacity: Int?, driverUserID: String?) async throws -> Taxi {
    let code = rawCode.uppercased()
    var check = InputValidation()
    let plate = rawPlate.map { check.requiredText($0.uppercased(), field: "taxi.plate", what: "a plate", maxLength: 20) }
    if let capacity, !(1 ... 8).contains(capacity) { check.fail("taxi.capacity", "a taxi seats 1 to 8 passengers") }
    try check.finish()
    let driver = try await checkedDriver(driverUserID.flatMap { $0.isEmpty ? nil : $0 })
    let now = clock.now()
    return try await commit { tx in
      guard let taxi = try tx.taxi(code: code) else { throw ServiceError.notFound("no taxi \(code)") }
      let newPlate = plate ?? taxi.plate
      if newPlate != taxi.plate, let other = try tx.taxiCode(plate: newPlate) {
        throw ServiceError.alreadyExists("taxi \(other) has the plate \(newPlate)")
      }
      var newDriver = taxi.driverUserID
      if driverUserID != nil {
        newDriver = driver
        if newDriver != taxi.driverUserID && (taxi.onRide || taxi.hasPendingOffer) {
          throw ServiceError.failedPrecondition("taxi \(code) is on a job; change its driver when it is free")
        }
        if let newDriver, let other = try tx.taxiCode(driverUserID: newDriver), other != code {
          throw ServiceError.failedPrecondition("that driver drives taxi \(other); unlink them there first")
        }
      }
      try tx.updateTaxiDetails(code: code, plate: newPlate, capacity: capacity ?? taxi.capacity, driverUserID: newDriver)
      if newDriver != taxi.driverUserID {
        // A new driver signs on for themselves.
        try tx.setAvailability(code: code, available: false, reason: newDriver == nil ? "no driver" : "not signed on yet")
        try tx.leaveQueue(code: code)
        try self.withdrawOffer(ofTaxi: code, reason: "unavailable", tx, now: now)
      }
      return try self.recordTaxi(tx, code)
    }
  }

  /// Deletes a taxi that is not on a job.
  public func deleteTaxi(code rawCode: String) async throws {
    let code = rawCode.uppercased()
    try await commit { tx in
      guard let taxi = try tx.taxi(code: code) else { throw ServiceError.notFound("no taxi \(code)") }
      guard !taxi.onRide, !taxi.hasPendingOffer else {
        throw ServiceError.failedPrecondition("taxi \(code) is on a job; delete it when it is free")
      }
      try tx.deleteTaxi(code: code)
    }
  }

  /// Every taxi by code, with its drivers' names.
  public func taxis() async throws -> [(taxi: Taxi, driverName: String)] {
    let taxis = try await store.read { tx in try tx.allTaxis() }
    let names = try await driverNames(taxis)
    return taxis.map { ($0, $0.driverUserID.flatMap { names[$0] } ?? "") }
  }

  func driverNames(_ taxis: [Taxi]) async throws -> [String: String] {
    let ids = taxis.compactMap(\.driverUserID)
    guard !ids.isEmpty else { return [:] }
    return Dictionary(try await accounts.accounts(ids: ids).map { ($0.userID, $0.displayName) }, uniquingKeysWith: { first, _ in first })
  }

  /// `nil` for none, else the id of an existing, enabled account with the driver role.
  func checkedDriver(_ userID: String?) async throws -> String? {
    guard let userID = userID?.trimmingCharacters(in: .whitespaces), !userID.isEmpty else { return nil }
    guard let account = try await accounts.accounts(ids: [userID]).first else {
      throw ServiceError.invalid("taxi.driver_user_id", "no account \(userID); create the driver with identity's CreateDriver")
    }
    guard account.isDriver, !account.disabled else {
      throw ServiceError.invalid("taxi.driver_user_id", "account \(userID) is not an enabled driver")
    }
    return userID
  }
}
