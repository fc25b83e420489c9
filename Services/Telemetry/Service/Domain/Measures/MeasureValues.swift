/// A reading's values: at most one per measure, kept inline (no dictionary, no allocation), since
/// ingest handles hundreds of thousands of readings a second and looks each value up several times.
public struct MeasureValues: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
  /// Slot `measure.slot` holds the measure's value when bit `measure.slot` of `present` is set.
  private var slots: (Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
  private var present: UInt16 = 0

  public init() {}

  public init(dictionaryLiteral elements: (Measure, Double)...) {
    for (measure, value) in elements { self[measure] = value }
  }

  public init(_ values: [Measure: Double]) {
    for (measure, value) in values { self[measure] = value }
  }

  public subscript(measure: Measure) -> Double? {
    get {
      guard present & (1 << measure.slot) != 0 else { return nil }
      return withUnsafeBytes(of: slots) { $0.load(fromByteOffset: measure.slot * MemoryLayout<Double>.stride, as: Double.self) }
    }
    set {
      if let newValue {
        withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: newValue, toByteOffset: measure.slot * MemoryLayout<Double>.stride, as: Double.self) }
        present |= 1 << measure.slot
      } else {
        present &= ~(1 << measure.slot)
      }
    }
  }

  public var isEmpty: Bool { present == 0 }
  public var count: Int { present.nonzeroBitCount }

  /// The values present, in ``Measure``'s order.
  public func makeIterator() -> some IteratorProtocol<(measure: Measure, value: Double)> {
    Measure.allCases.lazy.compactMap { measure in self[measure].map { (measure: measure, value: $0) } }.makeIterator()
  }

  public static func == (lhs: MeasureValues, rhs: MeasureValues) -> Bool {
    // Bit for bit, as stored readings are compared with a resend (a NaN never gets stored).
    lhs.present == rhs.present && Measure.allCases.allSatisfy { lhs[$0] == rhs[$0] }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(present)
    for (_, value) in self { hasher.combine(value) }
  }
}

extension Measure {
  /// The measure's position in ``allCases`` (a reading's slot; the store's column order).
  public var slot: Int {
    switch self {
    case .temperature: return 0
    case .humidity: return 1
    case .pressure: return 2
    case .altitude: return 3
    case .tvoc: return 4
    case .eco2: return 5
    case .pm0_5: return 6
    case .pm1: return 7
    case .pm2_5: return 8
    case .pm4: return 9
    case .pm10: return 10
    }
  }
}
