/// A value that is not Sendable (an async iterator) handed from the task that started using it
/// to one task that carries on with it.
///
/// `@unchecked Sendable` is safe: the handing task creates the hand-off and never touches the
/// value again; the receiving task takes it once and uses its own copy alone.
final class TaskHandOff<Value>: @unchecked Sendable {
  let value: Value

  init(_ value: Value) {
    self.value = value
  }
}
