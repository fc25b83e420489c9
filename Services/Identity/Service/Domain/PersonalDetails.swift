/// What a person states about themselves when an account is created (Register, CreateDriver).
public struct PersonalDetails: Sendable, Hashable {
  public var email: String
  public var password: String
  public var firstName: String
  public var lastName: String
  /// E.164, e.g. `+393331234567`.
  public var phone: String
  /// `YYYY-MM-DD`.
  public var birthDate: String
  /// `nil`: not specified (refused).
  public var gender: Gender?

  public init(
    email: String,
    password: String,
    firstName: String,
    lastName: String,
    phone: String,
    birthDate: String,
    gender: Gender?
  ) {
    self.email = email
    self.password = password
    self.firstName = firstName
    self.lastName = lastName
    self.phone = phone
    self.birthDate = birthDate
    self.gender = gender
  }
}

/// Changes to a profile (UpdateMe): `nil` leaves a field as it is.
public struct ProfileChanges: Sendable, Hashable {
  public var firstName: String?
  public var lastName: String?
  public var phone: String?
  public var birthDate: String?
  /// `.some(nil)`: the caller sent "unspecified" (refused).
  public var gender: Gender??

  public init(
    firstName: String? = nil,
    lastName: String? = nil,
    phone: String? = nil,
    birthDate: String? = nil,
    gender: Gender?? = nil
  ) {
    self.firstName = firstName
    self.lastName = lastName
    self.phone = phone
    self.birthDate = birthDate
    self.gender = gender
  }
}
