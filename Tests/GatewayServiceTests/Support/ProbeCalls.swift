import BinarioEcho
import BinarioTransport
import GRPCCore
import GRPCProtobuf

/// The metadata the probe upstream received for a call with `metadata`, as `key → values`.
func metadataSeenUpstream(
  _ client: GRPCClient<BinarioClientTransport>,
  sending metadata: Metadata = [:]
) async throws -> [String: [String]] {
  let text = try await client.unary(
    request: ClientRequest(message: Binario_Echo_V1_EchoRequest(), metadata: metadata),
    descriptor: ProbeService.metadata,
    serializer: ProtobufSerializer<Binario_Echo_V1_EchoRequest>(),
    deserializer: ProtobufDeserializer<Binario_Echo_V1_EchoResponse>(),
    options: .defaults
  ) { try $0.message.text }
  var seen: [String: [String]] = [:]
  for line in text.split(separator: "\n") {
    let parts = line.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
    seen[String(parts[0]), default: []].append(parts.count > 1 ? String(parts[1]) : "")
  }
  return seen
}
