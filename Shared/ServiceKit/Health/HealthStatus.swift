/// Whether a service (or, under the name `""`, the whole server) can take calls.
public enum HealthStatus: Sendable, Hashable {
  case serving
  case notServing
}
