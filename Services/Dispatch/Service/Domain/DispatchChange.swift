import BinarioDomain
import Foundation

/// A change a transaction made that someone is watching for: published after commit.
public enum DispatchChange: Sendable, Hashable {
  /// A job offered to a taxi.
  case offerMade(OfferedJob)
  /// An offer that is no longer pending, and why ("expired", "rejected", "cancelled", ...).
  case offerWithdrawn(offerID: String, taxiCode: String, reason: String)
  /// A ride as it is now.
  case rideChanged(Ride)
  /// A taxi as it is now (availability, zone, queue).
  case taxiChanged(Taxi)
  /// A taxi reported a new position (the control room's map moves it).
  case taxiMoved(code: String)
  /// An alert was raised or acknowledged (the control room lists the open ones).
  case alertRaised
}
