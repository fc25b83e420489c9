import BinarioPayments
import Testing

@Suite("The test payment provider")
struct TestPaymentProviderTests {
  let now = CalendarMonth(year: 2027, month: 6)

  @Test(
    "documented test cards are tokenised with their brand and last four digits",
    arguments: [
      ("4242 4242 4242 4242", "visa", "4242", "123"),
      ("5555-5555-5555-4444", "mastercard", "4444", "123"),
      ("378282246310005", "amex", "0005", "1234"),
    ]
  )
  func accepted(number: String, brand: String, last4: String, code: String) async throws {
    let token = try await TestPaymentProvider().tokenize(
      PaymentCard(number: number, expiryMonth: 6, expiryYear: 2027, securityCode: code),
      currentMonth: now
    )
    #expect(token.brand == brand)
    #expect(token.last4 == last4)
    #expect(token.token.hasPrefix("tok_test_"))
    #expect(!token.token.contains(last4 + last4))
    #expect((token.expiryMonth, token.expiryYear) == (6, 2027))
  }

  @Test("two cards get two different tokens")
  func tokensDiffer() async throws {
    let card = PaymentCard(number: "4242424242424242", expiryMonth: 1, expiryYear: 2030, securityCode: "123")
    let a = try await TestPaymentProvider().tokenize(card, currentMonth: now)
    let b = try await TestPaymentProvider().tokenize(card, currentMonth: now)
    #expect(a.token != b.token)
  }

  @Test("the documented charge-declined number is saved, but its charges are not authorized")
  func chargeDeclined() async throws {
    let declining = PaymentCard(number: "4000 0000 0000 0341", expiryMonth: 1, expiryYear: 2030, securityCode: "123")
    let paying = PaymentCard(number: "4242424242424242", expiryMonth: 1, expiryYear: 2030, securityCode: "123")
    let declined = try await TestPaymentProvider().tokenize(declining, currentMonth: now)
    #expect(declined.last4 == "0341" && !TestPaymentProvider.authorizes(token: declined.token))
    #expect(TestPaymentProvider.authorizes(token: try await TestPaymentProvider().tokenize(paying, currentMonth: now).token))
  }

  @Test("the documented declined number is declined")
  func declined() async throws {
    let card = PaymentCard(number: "4000 0000 0000 0002", expiryMonth: 1, expiryYear: 2030, securityCode: "123")
    await #expect(throws: PaymentError.declined("the card was declined by its issuer; use another card")) {
      _ = try await TestPaymentProvider().tokenize(card, currentMonth: now)
    }
  }

  @Test("every malformed part is named at once")
  func malformed() async throws {
    let card = PaymentCard(number: "4242424242424241", expiryMonth: 13, expiryYear: 99, securityCode: "12")
    do {
      _ = try await TestPaymentProvider().tokenize(card, currentMonth: now)
      Issue.record("accepted a malformed card")
    } catch .invalidCard(let problems) {
      #expect(Set(problems.map(\.field)) == [.number, .expiryMonth, .expiryYear, .securityCode])
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test("an expired card is refused; one expiring this month is not")
  func expiry() async throws {
    let provider = TestPaymentProvider()
    _ = try await provider.tokenize(
      PaymentCard(number: "4242424242424242", expiryMonth: 6, expiryYear: 2027, securityCode: "123"),
      currentMonth: now
    )
    await #expect(throws: PaymentError.self) {
      _ = try await provider.tokenize(
        PaymentCard(number: "4242424242424242", expiryMonth: 5, expiryYear: 2027, securityCode: "123"),
        currentMonth: now
      )
    }
  }

  @Test("the Luhn checksum", arguments: [("79927398713", true), ("79927398710", false), ("4242424242424242", true)])
  func luhn(digits: String, valid: Bool) {
    #expect(TestPaymentProvider.passesLuhn(digits) == valid)
  }
}
