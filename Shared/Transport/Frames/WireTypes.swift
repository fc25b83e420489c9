import BinarioProto

/// Short names for the generated wire-protocol messages of `proto/binario/wire/v1/frame.proto`.
public typealias WireFrame = Binario_Wire_V1_Frame
public typealias WireOpen = Binario_Wire_V1_Open
public typealias WireMetadataEntry = Binario_Wire_V1_MetadataEntry
public typealias WireHeaders = Binario_Wire_V1_Headers
public typealias WireEnd = Binario_Wire_V1_End

/// The metadata of a call as it travels on the wire: ordered, keys lower-case, `-bin` keys binary.
public typealias WireMetadata = [Binario_Wire_V1_MetadataEntry]

extension WireMetadata {
  /// The first text value for `key` (keys are compared as given: wire keys are lower-case).
  public func firstText(_ key: String) -> String? {
    for entry in self where entry.key == key {
      if case .text(let text)? = entry.value { return text }
    }
    return nil
  }
}

extension WireEnd {
  /// An `End` with a status code and a message for a person.
  public init(code: Int32, message: String = "", trailers: WireMetadata = []) {
    self.init()
    self.statusCode = code
    self.statusMessage = message
    self.trailers = trailers
  }

  /// The `UNAVAILABLE` of a call the callee refused before running any of it (`refused`): the
  /// caller may send it again as it was, whatever it does.
  public static func refused(_ message: String) -> WireEnd {
    var end = WireEnd(code: WireStatusCode.unavailable, message: message)
    end.refused = true
    return end
  }
}

/// gRPC's canonical status codes, as they appear in `End.status_code`.
public enum WireStatusCode {
  public static let ok: Int32 = 0
  public static let cancelled: Int32 = 1
  public static let unknown: Int32 = 2
  public static let invalidArgument: Int32 = 3
  public static let deadlineExceeded: Int32 = 4
  public static let notFound: Int32 = 5
  public static let alreadyExists: Int32 = 6
  public static let permissionDenied: Int32 = 7
  public static let resourceExhausted: Int32 = 8
  public static let failedPrecondition: Int32 = 9
  public static let unimplemented: Int32 = 12
  public static let internalError: Int32 = 13
  public static let unavailable: Int32 = 14
  public static let dataLoss: Int32 = 15
  public static let unauthenticated: Int32 = 16
}

extension WireFrame {
  /// Whether this frame ends its call (`End`).
  var isEnd: Bool {
    if case .end = self.kind { return true }
    return false
  }

  /// The bytes of message payload the frame carries (what outbound queues count).
  var payloadSize: Int {
    switch self.kind {
    case .message(let message): return message.payload.count
    case .open(let open): return open.payload.count
    default: return 0
    }
  }
}
