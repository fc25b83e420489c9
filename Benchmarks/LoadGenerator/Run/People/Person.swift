import BinarioProto
import Synchronization

/// Someone the generator plays: signed in, their tokens renewed when the access token is refused.
public final class Person: Sendable {
  public let email: String
  let password: String
  private let tokens: Mutex<Binario_Identity_V1_TokenPair>

  init(email: String, password: String, tokens: Binario_Identity_V1_TokenPair) {
    self.email = email
    self.password = password
    self.tokens = Mutex(tokens)
  }

  var caller: Caller { .bearer(tokens.withLock { $0.accessToken }) }

  /// `call` as this person; once more with new tokens when the access token was refused (it
  /// expired during a long run). Signing in again, not refreshing: a refresh token used twice by
  /// two calls that both saw the refusal would end the session.
  func call<Answer: Sendable>(through door: any Door, _ call: (Caller) async throws -> Answer) async throws -> Answer {
    let used = caller
    do {
      return try await call(used)
    } catch let failure as CallFailure where failure.isUnauthenticated {
      try await signInAgain(through: door, unless: used)
      return try await call(caller)
    }
  }

  private func signInAgain(through door: any Door, unless refused: Caller) async throws {
    guard case .bearer(let refusedToken) = refused, tokens.withLock({ $0.accessToken }) == refusedToken else { return }
    let answer = try await door.unary(
      Binario_Identity_V1_Identity.Method.Login.descriptor,
      Binario_Identity_V1_LoginRequest.with {
        $0.email = email
        $0.password = password
      },
      as: .anonymous,
      answer: Binario_Identity_V1_LoginResponse.self
    )
    tokens.withLock { $0 = answer.tokens }
  }
}
