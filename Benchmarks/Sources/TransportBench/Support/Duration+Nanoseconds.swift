extension Duration {
  /// Whole nanoseconds (non-negative durations).
  var nanoseconds: UInt64 {
    let (seconds, attoseconds) = self.components
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
  }
}
