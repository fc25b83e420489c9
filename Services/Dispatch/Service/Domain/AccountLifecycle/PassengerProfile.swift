import BinarioDomain

/// What a request needs to know about its passenger, as identity last told it
/// (`AccountProfileChanged`): the name the driver sees, the verified phone, the default card.
///
/// It may lag identity by the events' delay (milliseconds): a profile that is not ready yet
/// (the phone just verified, the card just added) is asked of identity before a request is
/// refused, so the lag never refuses anyone.
public struct PassengerProfile: Sendable, Hashable {
  public var userID: String
  public var displayName: String
  /// Empty unless verified.
  public var verifiedPhone: String
  public var card: CardOnFile?

  public init(userID: String, displayName: String, verifiedPhone: String, card: CardOnFile?) {
    self.userID = userID
    self.displayName = displayName
    self.verifiedPhone = verifiedPhone
    self.card = card
  }
}
