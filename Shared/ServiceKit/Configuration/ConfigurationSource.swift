/// Where a configuration value came from, for error messages.
public enum ConfigurationSource: Sendable, Hashable, CustomStringConvertible {
  case defaults
  /// The JSON config file at `path`, under `key`.
  case file(path: String, key: String?)
  case environment(variable: String)
  case flag(name: String)

  public var description: String {
    switch self {
    case .defaults:
      return "the defaults"
    case .file(let path, let key?):
      return "key \"\(key)\" of config file \(path)"
    case .file(let path, nil):
      return "config file \(path)"
    case .environment(let variable):
      return "environment variable \(variable)"
    case .flag(let name):
      return "flag \(name)"
    }
  }
}
