/// An account holder's gender, as they state it. Stored as the raw value.
public enum Gender: String, Sendable, Hashable, CaseIterable {
  case female
  case male
  case other
  case preferNotToSay = "prefer-not-to-say"
}
