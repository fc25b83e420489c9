import Logging

/// The metadata of one log event, merged and flattened the same way by both handlers.
enum LogFields {
  /// Handler metadata, then the metadata provider's, then the event's; later ones win.
  static func merge(
    handler: Logger.Metadata,
    provider: Logger.MetadataProvider?,
    event: Logger.Metadata?
  ) -> Logger.Metadata {
    var merged = handler
    if let provided = provider?.get(), !provided.isEmpty {
      merged.merge(provided, uniquingKeysWith: { _, new in new })
    }
    if let event, !event.isEmpty {
      merged.merge(event, uniquingKeysWith: { _, new in new })
    }
    return merged
  }

  /// Nested dictionaries become dotted keys (`peer.address`); sorted by key so lines are stable.
  static func flatten(_ metadata: Logger.Metadata) -> [(key: String, value: Logger.MetadataValue)] {
    var fields: [(key: String, value: Logger.MetadataValue)] = []
    func visit(_ metadata: Logger.Metadata, prefix: String) {
      for (key, value) in metadata {
        if case .dictionary(let nested) = value, !nested.isEmpty {
          visit(nested, prefix: prefix + key + ".")
        } else {
          fields.append((prefix + key, value))
        }
      }
    }
    visit(metadata, prefix: "")
    return fields.sorted { $0.key < $1.key }
  }
}
