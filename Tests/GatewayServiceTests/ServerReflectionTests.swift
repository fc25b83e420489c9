import BinarioProto
import Foundation
import SwiftProtobuf
import Testing

@testable import GatewayService

@Suite("Server reflection from the generated descriptors")
struct ServerReflectionTests {
  let reflection: ServerReflection

  init() throws {
    self.reflection = try ServerReflection(files: ProtoDescriptors.files()) { service in
      service.hasPrefix("binario.identity.v1.") || service.hasPrefix("grpc.health.v1.")
    }
  }

  private func ask(_ configure: (inout ServerReflection.Request) -> Void, sent: inout Set<String>) -> ServerReflection.Response {
    var request = ServerReflection.Request()
    request.host = "gateway"
    configure(&request)
    return self.reflection.answer(request, sent: &sent)
  }

  @Test func listsOnlyTheExposedServices() {
    var sent: Set<String> = []
    let response = self.ask({ $0.listServices = "" }, sent: &sent)
    #expect(response.listServicesResponse.service.map(\.name) == ["binario.identity.v1.Identity", "grpc.health.v1.Health"])
    #expect(response.validHost == "gateway" && response.originalRequest.listServices == "")
  }

  @Test func aSymbolGivesItsFileThenItsImportsOnce() throws {
    var sent: Set<String> = []
    let first = self.ask({ $0.fileContainingSymbol = "binario.identity.v1.Identity.GetMe" }, sent: &sent)
    let files = try first.fileDescriptorResponse.fileDescriptorProto.map { try Google_Protobuf_FileDescriptorProto(serializedBytes: $0) }
    #expect(files.first?.name == "binario/identity/v1/identity.proto")
    #expect(files.map(\.name).contains("google/protobuf/timestamp.proto"))
    #expect(files.map(\.name).contains("google/api/annotations.proto"))
    // Nested messages are symbols too; the imports already sent are not sent again.
    let again = self.ask({ $0.fileContainingSymbol = ".binario.identity.v1.TokenPair" }, sent: &sent)
    #expect(again.fileDescriptorResponse.fileDescriptorProto.count == 1)
  }

  @Test func unknownNamesAreNotFound() {
    var sent: Set<String> = []
    #expect(self.ask({ $0.fileContainingSymbol = "binario.nothing.v1.Nope" }, sent: &sent).errorResponse.errorCode == 5)
    #expect(self.ask({ $0.fileByFilename = "nope.proto" }, sent: &sent).errorResponse.errorCode == 5)
    #expect(self.ask({ $0.allExtensionNumbersOfType = "binario.nothing.v1.Nope" }, sent: &sent).errorResponse.errorCode == 5)
    #expect(
      self.ask({ $0.allExtensionNumbersOfType = "binario.identity.v1.TokenPair" }, sent: &sent).allExtensionNumbersResponse.extensionNumber.isEmpty
    )
    #expect(self.ask({ _ in }, sent: &sent).errorResponse.errorCode == 3)
  }
}
