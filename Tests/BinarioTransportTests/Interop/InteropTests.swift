import BinarioTransport
import Foundation
import GRPCCore
import GRPCProtobuf
import Testing

/// gRPC's interoperability cases that a transport can get wrong
/// (https://github.com/grpc/grpc/blob/master/doc/interop-test-descriptions.md), run with
/// GRPCCore's generated client and server over the Binario transport.
@Suite("gRPC interoperability cases over the Binario transport")
struct InteropTests {
  private func withTestService(
    _ body: (Grpc_Testing_TestService.Client<BinarioClientTransport>, GRPCClient<BinarioClientTransport>) async throws -> Void
  ) async throws {
    try await withTestServer(services: [InteropTestService()]) { port, _ in
      try await withTestClient(port: port) { client, _ in
        try await body(Grpc_Testing_TestService.Client(wrapping: client), client)
      }
    }
  }

  @Test func emptyUnary() async throws {
    try await withTestService { service, _ in
      let response = try await service.emptyCall(Grpc_Testing_Empty())
      #expect(response == Grpc_Testing_Empty())
    }
  }

  @Test func largeUnary() async throws {
    try await withTestService { service, _ in
      let response = try await service.unaryCall(
        .with {
          $0.responseSize = 314_159
          $0.payload = .with { $0.body = Data(count: 271_828) }
        }
      )
      #expect(response.payload.body.count == 314_159)
    }
  }

  @Test func largeUnaryOfThreeMebibytesPasses() async throws {
    try await withTestService { service, _ in
      let size = 3 * 1024 * 1024
      let response = try await service.unaryCall(
        .with {
          $0.responseSize = Int32(size)
          $0.payload = .with { $0.body = Data(count: size) }
        }
      )
      #expect(response.payload.body.count == size)
    }
  }

  @Test func aRequestOverTheFrameLimitGetsResourceExhausted() async throws {
    try await withTestService { service, _ in
      let error = await #expect(throws: RPCError.self) {
        _ = try await service.unaryCall(.with { $0.payload = .with { $0.body = Data(count: 5 * 1024 * 1024) } })
      }
      #expect(error?.code == .resourceExhausted)
      // The connection is still fine.
      _ = try await service.emptyCall(Grpc_Testing_Empty())
    }
  }

  @Test func aResponseOverTheFrameLimitGetsResourceExhausted() async throws {
    try await withTestService { service, _ in
      let error = await #expect(throws: RPCError.self) {
        _ = try await service.unaryCall(.with { $0.responseSize = 5 * 1024 * 1024 })
      }
      #expect(error?.code == .resourceExhausted)
      _ = try await service.emptyCall(Grpc_Testing_Empty())
    }
  }

  @Test func clientStreaming() async throws {
    try await withTestService { service, _ in
      let response = try await service.streamingInputCall(
        request: StreamingClientRequest { writer in
          for size in [27_182, 8, 1_828, 45_904] {
            try await writer.write(.with { $0.payload = .with { $0.body = Data(count: size) } })
          }
        }
      )
      #expect(response.aggregatedPayloadSize == 74_922)
    }
  }

  @Test func serverStreaming() async throws {
    try await withTestService { service, _ in
      let sizes = [31_415, 9, 2_653, 58_979]
      let received = try await service.streamingOutputCall(
        .with {
          $0.responseParameters = sizes.map { size in .with { $0.size = Int32(size) } }
        }
      ) { response in
        var received: [Int] = []
        for try await message in response.messages { received.append(message.payload.body.count) }
        return received
      }
      #expect(received == sizes)
    }
  }

  @Test func pingPong() async throws {
    try await withTestService { service, _ in
      let requestSizes = [27_182, 8, 1_828, 45_904]
      let responseSizes = [31_415, 9, 2_653, 58_979]
      let (turns, turn) = AsyncStream.makeStream(of: Int.self)
      let received = try await service.fullDuplexCall(
        request: StreamingClientRequest { writer in
          // Each request goes out only after the previous response came back.
          turn.yield(0)
          for await index in turns {
            guard index < requestSizes.count else { break }
            try await writer.write(
              .with {
                $0.responseParameters = [.with { $0.size = Int32(responseSizes[index]) }]
                $0.payload = .with { $0.body = Data(count: requestSizes[index]) }
              }
            )
          }
        }
      ) { response in
        var received: [Int] = []
        for try await message in response.messages {
          received.append(message.payload.body.count)
          turn.yield(received.count)
        }
        return received
      }
      #expect(received == responseSizes)
    }
  }

  @Test func emptyStream() async throws {
    try await withTestService { service, _ in
      let count = try await service.fullDuplexCall(
        request: StreamingClientRequest { _ in }
      ) { response in
        var count = 0
        for try await _ in response.messages { count += 1 }
        return count
      }
      #expect(count == 0)
    }
  }

  @Test func customMetadata() async throws {
    try await withTestService { service, _ in
      var metadata: Metadata = [InteropTestService.initialMetadataKey: "test_initial_metadata_value"]
      metadata.addBinary([0xAB, 0xAB, 0xAB], forKey: InteropTestService.trailingMetadataKey)

      try await service.unaryCall(
        request: ClientRequest(
          message: .with {
            $0.responseSize = 314_159
            $0.payload = .with { $0.body = Data(count: 271_828) }
          },
          metadata: metadata
        )
      ) { response in
        #expect(Array(response.metadata[stringValues: InteropTestService.initialMetadataKey]) == ["test_initial_metadata_value"])
        #expect(Array(response.trailingMetadata[binaryValues: InteropTestService.trailingMetadataKey]) == [[0xAB, 0xAB, 0xAB]])
        let size = try response.message.payload.body.count
        #expect(size == 314_159)
      }

      try await service.fullDuplexCall(
        request: StreamingClientRequest(metadata: metadata) { writer in
          try await writer.write(
            .with {
              $0.responseParameters = [.with { $0.size = 314_159 }]
              $0.payload = .with { $0.body = Data(count: 271_828) }
            }
          )
        }
      ) { response in
        #expect(Array(response.metadata[stringValues: InteropTestService.initialMetadataKey]) == ["test_initial_metadata_value"])
        var trailers: Metadata = [:]
        for try await part in response.bodyParts {
          if case .trailingMetadata(let metadata) = part { trailers = metadata }
        }
        #expect(Array(trailers[binaryValues: InteropTestService.trailingMetadataKey]) == [[0xAB, 0xAB, 0xAB]])
      }
    }
  }

  @Test(arguments: [
    "test status message",
    "\t\ntest with whitespace\r\nand Unicode BMP ☺ and non-BMP 😈\t\n",
  ])
  func statusCodeAndMessage(message: String) async throws {
    try await withTestService { service, _ in
      let unary = await #expect(throws: RPCError.self) {
        _ = try await service.unaryCall(
          .with {
            $0.responseStatus = .with {
              $0.code = 2
              $0.message = message
            }
          }
        )
      }
      #expect(unary?.code == .unknown)
      #expect(unary?.message == message)

      let duplex = await #expect(throws: RPCError.self) {
        try await service.fullDuplexCall(
          request: StreamingClientRequest { writer in
            try await writer.write(
              .with {
                $0.responseStatus = .with {
                  $0.code = 2
                  $0.message = message
                }
              }
            )
          }
        ) { response in
          for try await _ in response.messages {}
        }
      }
      #expect(duplex?.code == .unknown)
      #expect(duplex?.message == message)
    }
  }

  @Test func unimplementedMethod() async throws {
    try await withTestService { service, _ in
      let error = await #expect(throws: RPCError.self) {
        _ = try await service.unimplementedCall(Grpc_Testing_Empty())
      }
      #expect(error?.code == .unimplemented)
    }
  }

  @Test func unimplementedService() async throws {
    try await withTestService { _, client in
      let error = await #expect(throws: RPCError.self) {
        _ = try await Grpc_Testing_UnimplementedService.Client(wrapping: client).unimplementedCall(Grpc_Testing_Empty())
      }
      #expect(error?.code == .unimplemented)
    }
  }

  @Test func cancelAfterBegin() async throws {
    try await withTestService { service, _ in
      let (begun, didBegin) = AsyncStream.makeStream(of: Void.self)
      let call = Task {
        try await service.streamingInputCall(
          request: StreamingClientRequest { _ in
            didBegin.yield()
            try await waitUntilCancelled()
          }
        )
      }
      _ = await begun.first()
      call.cancel()
      let result = await call.result
      #expect(throws: (any Error).self) { try result.get() }
      #expect(InteropTests.isCancellation(result))
    }
  }

  @Test func cancelAfterFirstResponse() async throws {
    try await withTestService { service, _ in
      let (firstResponse, gotFirst) = AsyncStream.makeStream(of: Void.self)
      let call = Task {
        try await service.fullDuplexCall(
          request: StreamingClientRequest { writer in
            try await writer.write(
              .with {
                $0.responseParameters = [.with { $0.size = 31_415 }]
                $0.payload = .with { $0.body = Data(count: 27_182) }
              }
            )
            try await waitUntilCancelled()
          }
        ) { response in
          for try await _ in response.messages { gotFirst.yield() }
        }
      }
      _ = await firstResponse.first()
      call.cancel()
      let result = await call.result
      #expect(InteropTests.isCancellation(result))
    }
  }

  @Test func timeoutOnSleepingServer() async throws {
    try await withTestService { service, _ in
      var options = CallOptions.defaults
      options.timeout = .milliseconds(1)
      let error = await #expect(throws: RPCError.self) {
        try await service.fullDuplexCall(
          request: StreamingClientRequest { writer in
            try await writer.write(.with { $0.payload = .with { $0.body = Data(count: 27_182) } })
            try await waitUntilCancelled()
          },
          options: options
        ) { response in
          for try await _ in response.messages {}
        }
      }
      #expect(error?.code == .deadlineExceeded)
    }
  }

  static func isCancellation<T>(_ result: Result<T, any Error>) -> Bool {
    guard case .failure(let error) = result else { return false }
    if error is CancellationError { return true }
    return (error as? RPCError)?.code == .cancelled
  }
}
