/// Reads samples out of Prometheus text exposition.
struct PrometheusText {
  let text: String

  /// The value of the sample whose name and labels are exactly `series`
  /// (`grpc_server_calls_total{method="test.Strings/Echo",code="OK"}`), or `nil` if absent.
  func value(_ series: String) -> Double? {
    for line in self.text.split(separator: "\n") where line.hasPrefix(series + " ") {
      return Double(line.dropFirst(series.count + 1))
    }
    return nil
  }
}
