/// Pearson's correlation coefficient of paired values (two series on the same time buckets);
/// `nil` for fewer than two pairs or a series that does not vary.
public func pearsonCorrelation(_ pairs: [(Double, Double)]) -> Double? {
  guard pairs.count >= 2 else { return nil }
  let n = Double(pairs.count)
  let meanX = pairs.map(\.0).reduce(0, +) / n
  let meanY = pairs.map(\.1).reduce(0, +) / n
  var covariance = 0.0
  var varianceX = 0.0
  var varianceY = 0.0
  for (x, y) in pairs {
    covariance += (x - meanX) * (y - meanY)
    varianceX += (x - meanX) * (x - meanX)
    varianceY += (y - meanY) * (y - meanY)
  }
  guard varianceX > 0, varianceY > 0 else { return nil }
  return covariance / (varianceX * varianceY).squareRoot()
}
