import GRPCCore

/// The echo service: answers with what it is sent, in each of the four call kinds.
public struct EchoService: Binario_Echo_V1_Echo.SimpleServiceProtocol {
  public init() {}

  public func get(
    request: Binario_Echo_V1_EchoRequest,
    context: ServerContext
  ) async throws -> Binario_Echo_V1_EchoResponse {
    .with {
      $0.text = request.text
      $0.payload = request.payload
    }
  }

  public func expand(
    request: Binario_Echo_V1_EchoRequest,
    response: RPCWriter<Binario_Echo_V1_EchoResponse>,
    context: ServerContext
  ) async throws {
    for word in request.text.split(separator: " ") {
      try await response.write(.with { $0.text = String(word) })
    }
  }

  public func collect(
    request: RPCAsyncSequence<Binario_Echo_V1_EchoRequest, any Error>,
    context: ServerContext
  ) async throws -> Binario_Echo_V1_EchoResponse {
    var texts: [String] = []
    for try await message in request {
      texts.append(message.text)
    }
    return .with { $0.text = texts.joined(separator: " ") }
  }

  public func update(
    request: RPCAsyncSequence<Binario_Echo_V1_EchoRequest, any Error>,
    response: RPCWriter<Binario_Echo_V1_EchoResponse>,
    context: ServerContext
  ) async throws {
    for try await message in request {
      try await response.write(
        .with {
          $0.text = message.text
          $0.payload = message.payload
        }
      )
    }
  }
}
