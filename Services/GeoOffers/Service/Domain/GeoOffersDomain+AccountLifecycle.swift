import BinarioDomain

extension GeoOffersDomain {
  /// A deleted account (identity's event): its position, offers and welcomes are erased, once.
  public func accountDeleted(userID: String, position: EventPosition) async throws -> Int {
    try await store.eraseAccount(userID: userID, position: position, at: clock.now())
  }
}
