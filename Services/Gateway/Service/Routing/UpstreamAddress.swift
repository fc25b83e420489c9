import BinarioServiceKit

/// Where an upstream service listens: `host:port` (`identity:7101`, `127.0.0.1:7101`,
/// `[::1]:7101`), parsed as every service parses the addresses of the services it calls.
public typealias UpstreamAddress = ServiceAddress
