import Foundation

/// The tile server the web app's maps draw on, from the deployment (`--map-tiles`,
/// `--map-attribution`): a URL template with `{z}`, `{x}` and `{y}`, and the attribution its
/// licence asks for. Without one the maps draw the schematic base map the app ships.
///
/// The web app reads both from `/app/config.json`, and the app's Content-Security-Policy allows
/// images from the template's origin, and from no other. OpenStreetMap's own tile servers, for
/// instance, ask for "© OpenStreetMap contributors" and a Referer that names the app (the app's
/// pages then send their origin to other sites, ``WebApp/referrerPolicy``), and forbid heavy use: `deploy/README.md` has the example and the policy.
public struct MapTiles: Sendable, Hashable {
  public let template: String
  public let attribution: String
  /// `scheme://host[:port]` of the template, for the policy's `img-src`.
  public let origin: String

  /// - Throws: ``GatewayConfigurationError`` saying what is wrong with the template.
  public init(template: String, attribution: String) throws(GatewayConfigurationError) {
    let example = "e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    for placeholder in ["{z}", "{x}", "{y}"] where !template.contains(placeholder) {
      throw GatewayConfigurationError("the map tiles' URL \(template) has no \(placeholder) (\(example))")
    }
    let filled = template.replacingOccurrences(of: "{z}", with: "0").replacingOccurrences(of: "{x}", with: "0")
      .replacingOccurrences(of: "{y}", with: "0").replacingOccurrences(of: "{r}", with: "")
    guard let url = URLComponents(string: filled), url.scheme == "https", let host = url.host, !host.isEmpty,
      !filled.contains("{")
    else {
      throw GatewayConfigurationError(
        "the map tiles' URL \(template) is not an https URL with only {z}, {x}, {y} (and {r}) to fill (\(example))"
      )
    }
    let attribution = attribution.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !attribution.isEmpty else {
      throw GatewayConfigurationError(
        "map tiles need their attribution (--map-attribution), e.g. \"© OpenStreetMap contributors\""
      )
    }
    self.template = template
    self.attribution = attribution
    self.origin = "https://\(host)" + (url.port.map { ":\($0)" } ?? "")
  }
}
