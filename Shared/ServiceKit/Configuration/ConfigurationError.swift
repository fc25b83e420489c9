/// A configuration that cannot be used: a bad value, an unknown or missing setting, an unreadable
/// file. The description names the setting and where its value came from.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The offending setting's name (as in ``ConfigurationSetting``), or an unknown key as written.
  /// `nil` when the problem is the file as a whole.
  public var setting: String?
  public var source: ConfigurationSource
  /// What is wrong, for a person.
  public var reason: String

  public init(setting: String?, source: ConfigurationSource, reason: String) {
    self.setting = setting
    self.source = source
    self.reason = reason
  }

  public var description: String {
    if let setting {
      return "invalid setting \"\(setting)\" from \(self.source): \(self.reason)"
    }
    return "invalid configuration from \(self.source): \(self.reason)"
  }

  /// A setting that must be set for what the process is about to do.
  static func missing(_ setting: ConfigurationSetting, needed purpose: String) -> Self {
    Self(
      setting: setting.key,
      source: .defaults,
      reason: "\(purpose) needs it; set \(setting.flag), \(setting.environmentVariable) "
        + "or \"\(setting.key)\" in the config file"
    )
  }
}
