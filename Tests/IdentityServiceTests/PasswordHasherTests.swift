import BinarioDomain
import Foundation
import IdentityService
import Testing

@Suite("Password hashing and input checks")
struct PasswordHasherTests {
  let hasher = PasswordHasher(parameters: .cheapForTests)

  @Test("a hash verifies its password only, carries its parameters, and is salted")
  func hashing() {
    let hash = hasher.hash("correct horse 42")
    #expect(hash.hasPrefix("scrypt$16$1$1$"))
    #expect(hasher.verify("correct horse 42", against: hash))
    #expect(!hasher.verify("correct horse 43", against: hash))
    #expect(hasher.hash("correct horse 42") != hash)
    #expect(!hasher.verifyAgainstNothing("correct horse 42"))
  }

  @Test("a hash made with other parameters still verifies, and asks to be redone")
  func otherParameters() {
    let stronger = PasswordHasher(parameters: ScryptParameters(rounds: 1 << 6, blockSize: 2, parallelism: 1))
    let hash = stronger.hash("correct horse 42")
    #expect(hasher.verify("correct horse 42", against: hash))
    #expect(hasher.needsRehash(hash))
    #expect(!stronger.needsRehash(hash))
  }

  @Test("malformed stored hashes match nothing", arguments: ["", "scrypt$", "bcrypt$1$2$3$abc$def", "scrypt$15$8$1$!!$!!", "scrypt$3$8$1$AAAA$AAAA"])
  func malformed(stored: String) {
    #expect(!hasher.verify("anything", against: stored))
  }

  @Test("production parameters are N=2^15, r=8, p=1")
  func production() {
    #expect(ScryptParameters.production == ScryptParameters(rounds: 32768, blockSize: 8, parallelism: 1))
    #expect(ScryptParameters.production.isValid)
  }

  @Test(
    "the emails identity accepts",
    arguments: [
      ("ada@example.com", true), ("a.b-c+d@mail.example.co.uk", true), ("ada@example", false), ("@example.com", false),
      ("ada@@example.com", false), ("ada@ex ample.com", false), ("ada..b@example.com", false), ("ada@-x.com", false),
      ("ada@example.c0m", false),
    ]
  )
  func emails(email: String, valid: Bool) {
    var check = InputValidation()
    check.email(email, field: "email")
    #expect(check.problems.isEmpty == valid)
  }

  @Test(
    "the phone numbers identity accepts",
    arguments: [
      ("+393331234567", true), ("+1 415 555 2671", true), ("+12345678", true), ("393331234567", false), ("+0393331234567", false),
      ("+1234567", false), ("+1234567890123456", false), ("+39-333", false),
    ]
  )
  func phones(phone: String, valid: Bool) {
    var check = InputValidation()
    check.phone(phone, field: "phone")
    #expect(check.problems.isEmpty == valid)
  }
}
