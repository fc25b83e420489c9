import Foundation
import SwiftProtobuf

/// The proto files behind the front doors, as descriptors: what the gRPC front door's server
/// reflection answers with, so a person can list and call methods without the `.proto` files.
/// Generated with the route table (`Generated/ProtoDescriptors+Generated.swift`).
public enum ProtoDescriptors {
  /// The generated files, decoded, in import order.
  public static func files() throws -> [Google_Protobuf_FileDescriptorProto] {
    try generatedFiles.map { entry in
      guard let data = Data(base64Encoded: entry.base64) else {
        throw ProtoDescriptorsError(file: entry.name)
      }
      return try Google_Protobuf_FileDescriptorProto(serializedBytes: data)
    }
  }
}

/// A generated descriptor that is not base64.
public struct ProtoDescriptorsError: Error, Sendable, Hashable {
  public var file: String
}
