import Logging

/// The metadata of one log event, merged and flattened the same way by both handlers.
enum LogFields {
  /// Handler metadata, then the metadata provider's, then the event's (later ones win), with
  /// nested dictionaries as dotted keys (`peer.address`), sorted by key so lines are stable.
  ///
  /// A line has a dozen fields or so: they are gathered in an array and deduplicated by a
  /// linear search, cheaper at that size than merging dictionaries.
  static func merged(
    handler: Logger.Metadata,
    provider: Logger.MetadataProvider?,
    event: Logger.Metadata?
  ) -> [(key: String, value: Logger.MetadataValue)] {
    var fields: [(key: String, value: Logger.MetadataValue)] = []
    fields.reserveCapacity(16)
    func add(_ metadata: Logger.Metadata, prefix: String) {
      for (key, value) in metadata {
        if case .dictionary(let nested) = value, !nested.isEmpty {
          add(nested, prefix: prefix + key + ".")
          continue
        }
        let name = prefix.isEmpty ? key : prefix + key
        if let existing = fields.firstIndex(where: { $0.key == name }) {
          fields[existing].value = value
        } else {
          fields.append((name, value))
        }
      }
    }
    add(handler, prefix: "")
    if let provided = provider?.get() { add(provided, prefix: "") }
    if let event { add(event, prefix: "") }
    fields.sort { $0.key < $1.key }
    return fields
  }
}
