import BinarioProto
import Foundation
import SwiftProtobuf

/// gRPC server reflection (`grpc.reflection.v1`, and `v1alpha` with the same messages) from the
/// descriptors generated beside the Swift code (``ProtoDescriptors``): the services the gateway
/// exposes, and the file that defines any of their symbols with the files it imports.
struct ServerReflection: Sendable {
  typealias Request = Grpc_Reflection_V1_ServerReflectionRequest
  typealias Response = Grpc_Reflection_V1_ServerReflectionResponse

  static let package = "grpc.reflection.v1"
  static let methods: Set<String> = [
    "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
  ]

  /// Each file's serialized descriptor, by file name.
  private let files: [String: Data]
  private let dependencies: [String: [String]]
  /// The file defining each fully-qualified service, method, message and enum.
  private let symbols: [String: String]
  /// Message types (fully qualified), for the extension questions.
  private let messageTypes: Set<String>
  /// The services listed, sorted.
  let services: [String]
  /// Every method whose request is a single message (unary or server streaming), by path.
  let singleRequestMethods: Set<String>

  /// - Parameter isExposed: whether a service (fully qualified) is reachable through the
  ///   gateway; only those are listed.
  init(files descriptors: [Google_Protobuf_FileDescriptorProto], isExposed: (String) -> Bool) throws {
    var files: [String: Data] = [:]
    var dependencies: [String: [String]] = [:]
    var symbols: [String: String] = [:]
    var messageTypes: Set<String> = []
    var services: [String] = []
    var singleRequestMethods: Set<String> = []
    for file in descriptors {
      files[file.name] = try file.serializedData()
      dependencies[file.name] = file.dependency
      let prefix = file.package.isEmpty ? "" : file.package + "."
      for service in file.service {
        let name = prefix + service.name
        symbols[name] = file.name
        for method in service.method {
          symbols[name + "." + method.name] = file.name
          if !method.clientStreaming { singleRequestMethods.insert("/\(name)/\(method.name)") }
        }
        if isExposed(name) { services.append(name) }
      }
      func addMessages(_ messages: [Google_Protobuf_DescriptorProto], under scope: String) {
        for message in messages {
          let name = scope + message.name
          symbols[name] = file.name
          messageTypes.insert(name)
          for nested in message.enumType { symbols[name + "." + nested.name] = file.name }
          addMessages(message.nestedType, under: name + ".")
        }
      }
      addMessages(file.messageType, under: prefix)
      for enumeration in file.enumType { symbols[prefix + enumeration.name] = file.name }
    }
    self.files = files
    self.dependencies = dependencies
    self.symbols = symbols
    self.messageTypes = messageTypes
    self.services = services.sorted()
    self.singleRequestMethods = singleRequestMethods
  }

  /// The answer to one request on a stream; `sent` holds the files this stream has already sent.
  func answer(_ request: Request, sent: inout Set<String>) -> Response {
    var response = Response()
    response.validHost = request.host
    response.originalRequest = request
    switch request.messageRequest {
    case .listServices?:
      var list = Grpc_Reflection_V1_ListServiceResponse()
      list.service = self.services.map { name in
        var service = Grpc_Reflection_V1_ServiceResponse()
        service.name = name
        return service
      }
      response.listServicesResponse = list
    case .fileByFilename(let name)?:
      response.messageResponse = self.fileResponse(name, sent: &sent, missing: "no file named \"\(name)\"")
    case .fileContainingSymbol(let symbol)?:
      let symbol = symbol.hasPrefix(".") ? String(symbol.dropFirst()) : symbol
      response.messageResponse = self.fileResponse(self.symbols[symbol] ?? "", sent: &sent, missing: "no symbol \"\(symbol)\"")
    case .fileContainingExtension(let extensionRequest)?:
      response.errorResponse = Self.notFound(
        "\(extensionRequest.containingType) has no extension \(extensionRequest.extensionNumber) here"
      )
    case .allExtensionNumbersOfType(let type)?:
      if self.messageTypes.contains(type) {
        var numbers = Grpc_Reflection_V1_ExtensionNumberResponse()
        numbers.baseTypeName = type
        response.allExtensionNumbersResponse = numbers
      } else {
        response.errorResponse = Self.notFound("no message type \"\(type)\"")
      }
    case nil:
      var error = Grpc_Reflection_V1_ErrorResponse()
      error.errorCode = 3  // INVALID_ARGUMENT
      error.errorMessage = "the request asks nothing"
      response.errorResponse = error
    }
    return response
  }

  /// `name` and the files it imports, transitively, minus those already sent on the stream.
  private func fileResponse(
    _ name: String,
    sent: inout Set<String>,
    missing: String
  ) -> Response.OneOf_MessageResponse {
    guard self.files[name] != nil else { return .errorResponse(Self.notFound(missing)) }
    var answer = Grpc_Reflection_V1_FileDescriptorResponse()
    var queue = [name]
    var seen: Set<String> = [name]
    while let next = queue.first {
      queue.removeFirst()
      // The file asked for always goes, even if sent before: it is the answer.
      if next == name || !sent.contains(next), let data = self.files[next] {
        answer.fileDescriptorProto.append(data)
        sent.insert(next)
      }
      for dependency in self.dependencies[next] ?? [] where seen.insert(dependency).inserted {
        queue.append(dependency)
      }
    }
    return .fileDescriptorResponse(answer)
  }

  private static func notFound(_ message: String) -> Grpc_Reflection_V1_ErrorResponse {
    var error = Grpc_Reflection_V1_ErrorResponse()
    error.errorCode = 5  // NOT_FOUND
    error.errorMessage = message
    return error
  }
}
