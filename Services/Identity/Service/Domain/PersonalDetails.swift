import BinarioDomain

/// What a person states about themselves when an account is created (Register, CreateDriver).
///
/// Email, password and first name (the name shown to others) are required; the rest is optional
/// and empty (or `nil`) when not given, since the apps ask for different things: MOQA for name,
/// surname, birth date and gender, SubscribeME for a name only, myTaxiService for a phone.
public struct PersonalDetails: Sendable, Hashable {
  public var email: String
  public var password: String
  public var firstName: String
  public var lastName: String
  /// E.164, e.g. `+393331234567`.
  public var phone: String
  /// `YYYY-MM-DD`.
  public var birthDate: String
  /// `nil`: not given.
  public var gender: Gender?
  /// The code of the language the suite writes to the person in (the app's, when it signs them
  /// up): `it` or `en`.
  public var language: String

  public init(
    email: String,
    password: String,
    firstName: String,
    lastName: String,
    phone: String,
    birthDate: String,
    gender: Gender?,
    language: String = Language.fallback.rawValue
  ) {
    self.email = email
    self.password = password
    self.firstName = firstName
    self.lastName = lastName
    self.phone = phone
    self.birthDate = birthDate
    self.gender = gender
    self.language = language
  }
}

/// Changes to a profile (UpdateMe, UpdateAccount): `nil` leaves a field as it is; an empty
/// optional field (or `.some(nil)` gender) removes it.
public struct ProfileChanges: Sendable, Hashable {
  public var firstName: String?
  public var lastName: String?
  public var phone: String?
  public var birthDate: String?
  /// `.some(nil)`: the caller sent "unspecified", which removes it.
  public var gender: Gender??
  /// A language code (`it`, `en`).
  public var language: String?

  public init(
    firstName: String? = nil,
    lastName: String? = nil,
    phone: String? = nil,
    birthDate: String? = nil,
    gender: Gender?? = nil,
    language: String? = nil
  ) {
    self.firstName = firstName
    self.lastName = lastName
    self.phone = phone
    self.birthDate = birthDate
    self.gender = gender
    self.language = language
  }

  /// The names of the fields it changes, as in the proto.
  public var fieldNames: [String] {
    var names: [String] = []
    if firstName != nil { names.append("first_name") }
    if lastName != nil { names.append("last_name") }
    if phone != nil { names.append("phone") }
    if birthDate != nil { names.append("birth_date") }
    if gender != nil { names.append("gender") }
    if language != nil { names.append("language") }
    return names
  }
}
