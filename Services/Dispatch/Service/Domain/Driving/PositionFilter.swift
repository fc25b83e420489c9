import BinarioDomain
import Foundation

/// Whether a taxi's position report is fit to move it: the filtering fleet trackers learned to
/// do before any zone logic (Traccar's filters), since one bad fix would move a taxi to another
/// zone's queue and back.
public enum PositionVerdict: String, Sendable, Hashable {
  case used
  /// Less accurate than ``DispatchSettings/worstAccuracyMetres``.
  case inaccurate
  /// The same instant as the last fix used.
  case duplicate
  /// Older than the last fix used.
  case outOfOrder = "out_of_order"
  /// Further from the last fix used than the fastest plausible drive since it.
  case tooFast = "too_fast"

  /// Judges a fix against the last one used. The speed check applies only while the last fix
  /// is recent (5 minutes): a taxi silent for longer may truly be anywhere, and one wrong fix
  /// must not hold every later one back.
  public static func of(
    _ position: GeoPoint,
    at instant: Date,
    accuracyMetres: Double?,
    last: GeoPoint?,
    lastAt: Date?,
    settings: DispatchSettings
  ) -> PositionVerdict {
    if let accuracyMetres, accuracyMetres > settings.worstAccuracyMetres { return .inaccurate }
    guard let last, let lastAt else { return .used }
    if instant < lastAt { return .outOfOrder }
    if instant == lastAt { return .duplicate }
    let seconds = instant.timeIntervalSince(lastAt)
    if seconds < 300 {
      // A few metres of jitter between close fixes is never "too fast".
      let allowed = settings.fastestKmh / 3.6 * seconds + 50
      if last.distance(to: position) > allowed { return .tooFast }
    }
    return .used
  }
}
