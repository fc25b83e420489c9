import BinarioProto
import BinarioTransport
import Foundation
import GRPCCore

/// Identity's generated client over the Binario transport.
public typealias IdentityClient = Binario_Identity_V1_Identity.Client<BinarioClientTransport>

/// Metadata carrying an access token, as a client sends it to the gateway.
public func bearer(_ tokens: Binario_Identity_V1_TokenPair) -> Metadata {
  ["authorization": "Bearer \(tokens.accessToken)"]
}

extension IdentityClient {
  /// Signs the first admin in (configured when the suite started).
  public func signInAdmin() async throws -> Binario_Identity_V1_TokenPair {
    try await self.login(
      .with {
        $0.email = RunningSuite.adminEmail
        $0.password = RunningSuite.adminPassword
      }
    ).tokens
  }

  /// The newest confirmation code emailed to `email`, read from the outbox by the admin.
  public func confirmationCode(for email: String, admin: Binario_Identity_V1_TokenPair) async throws -> String {
    let outbox = try await self.listOutboxMessages(
      .with {
        $0.recipient = email
        $0.limit = 10
      },
      metadata: bearer(admin)
    )
    for message in outbox.messages where message.channel == .email {
      let words = message.body.split(whereSeparator: { !$0.isNumber })
      if let code = words.first(where: { $0.count == 6 }) { return String(code) }
    }
    throw RPCError(code: .notFound, message: "no confirmation code for \(email) in the outbox")
  }

  /// The newest phone verification code texted to `phone`, read from the outbox by the admin.
  public func phoneCode(for phone: String, admin: Binario_Identity_V1_TokenPair) async throws -> String {
    let outbox = try await self.listOutboxMessages(
      .with {
        $0.recipient = phone
        $0.limit = 10
      },
      metadata: bearer(admin)
    )
    for message in outbox.messages where message.channel == .sms {
      let words = message.body.split(whereSeparator: { !$0.isNumber })
      if let code = words.first(where: { $0.count == 6 }) { return String(code) }
    }
    throw RPCError(code: .notFound, message: "no phone code for \(phone) in the outbox")
  }

  /// The token of the newest password reset link emailed to `email`, read from the outbox by the admin.
  public func passwordResetToken(for email: String, admin: Binario_Identity_V1_TokenPair) async throws -> String {
    let outbox = try await self.listOutboxMessages(
      .with {
        $0.recipient = email
        $0.limit = 10
      },
      metadata: bearer(admin)
    )
    for message in outbox.messages where message.channel == .email {
      if let range = message.body.range(of: "?token=") {
        return String(message.body[range.upperBound...].prefix { !$0.isWhitespace })
      }
    }
    throw RPCError(code: .notFound, message: "no reset link for \(email) in the outbox")
  }

  /// Registers, confirms and signs in a passenger; returns their tokens.
  public func signUp(
    email: String,
    password: String = "a-good-password-1",
    firstName: String = "Ada",
    admin: Binario_Identity_V1_TokenPair
  ) async throws -> Binario_Identity_V1_TokenPair {
    _ = try await self.register(
      .with {
        $0.email = email
        $0.password = password
        $0.firstName = firstName
        $0.lastName = "Lovelace"
        $0.phone = "+393331234567"
        $0.birthDate = "1990-12-10"
        $0.gender = .female
      }
    )
    let code = try await self.confirmationCode(for: email, admin: admin)
    _ = try await self.confirmEmail(
      .with {
        $0.email = email
        $0.code = code
      }
    )
    return try await self.login(
      .with {
        $0.email = email
        $0.password = password
      }
    ).tokens
  }

  /// Adds a card to the signed-in account: by default one the test payment provider approves
  /// (`4000000000000341` is approved here and declined when charged).
  public func addCard(number: String = "4242424242424242", to tokens: Binario_Identity_V1_TokenPair) async throws {
    _ = try await self.addPaymentMethod(
      .with {
        $0.cardNumber = number
        $0.expiryMonth = 12
        $0.expiryYear = 2035
        $0.securityCode = "123"
      },
      metadata: bearer(tokens)
    )
  }
}

/// `YYYY-MM-DD` in Rome (the zone ticketing's calendar days fall in), `days` from today.
public func romeDate(daysFromToday days: Int) -> String {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: "Europe/Rome")!
  let parts = calendar.dateComponents([.year, .month, .day], from: calendar.date(byAdding: .day, value: days, to: Date())!)
  return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
}
