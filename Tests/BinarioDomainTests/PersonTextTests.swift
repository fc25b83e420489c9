import BinarioDomain
import Foundation
import Testing

@Suite("Words for a person, in Italian and English")
struct PersonTextTests {
  @Test("a text keeps its English template and values, and renders in Italian from the catalogue")
  func rendersFromTheCatalogue() {
    let station = "MI_CENTRALE"
    let text: PersonText = "no station \(station)"
    #expect(text.template == "no station %@")
    #expect(text.rendered(in: .english) == "no station MI_CENTRALE")
    #expect(text.rendered(in: .italian) == "nessuna stazione MI_CENTRALE")
    #expect(text.description == "no station MI_CENTRALE")
  }

  @Test("a nested text renders in the same language; a percent sign stays one")
  func nestsAndEscapes() {
    let what: PersonText = "a first name"
    let required: PersonText = "\(what) is required"
    #expect(required.rendered(in: .italian) == "serve un nome")
    let discount: PersonText = "\(120)% is not a discount (1 to 100)"
    #expect(discount.template == "%@%% is not a discount (1 to 100)")
    #expect(discount.rendered(in: .english) == "120% is not a discount (1 to 100)")
    #expect(discount.rendered(in: .italian) == "120% non è uno sconto (da 1 a 100)")
  }

  @Test("a template missing from the catalogue falls back to English; verbatim words are never translated")
  func fallsBack() {
    let unknown: PersonText = "words no catalogue has \(1)"
    #expect(unknown.rendered(in: .italian) == "words no catalogue has 1")
    #expect(PersonText(verbatim: "the password needs").rendered(in: .italian) == "the password needs")
  }

  @Test("positional arguments reorder: %2$@ before %1$@")
  func reorders() {
    let text: PersonText = "\(PersonText(verbatim: "R12")) \("2345") to \("Bergamo") no longer runs on \("2027-05-01")"
    #expect(text.rendered(in: .italian) == "Il R12 2345 per Bergamo del 2027-05-01 non circola più")
  }

  @Test("two texts are equal when their English is, whatever their templates")
  func equalByEnglish() {
    let id = "X"
    #expect(PersonText("no ticket \(id)") == PersonText(stringLiteral: "no ticket X"))
  }

  @Test("a list renders each part in the language, joined as written")
  func lists() {
    let list = PersonText.list(["a letter", "a digit"])
    let needs: PersonText = "the password needs \(list)"
    #expect(needs.rendered(in: .english) == "the password needs a letter, a digit")
  }

  @Test("Accept-Language picks the best language the suite speaks, by quality; q=0 refuses")
  func acceptLanguage() {
    #expect(Language(acceptLanguage: "it-IT,it;q=0.9,en;q=0.8") == .italian)
    #expect(Language(acceptLanguage: "de-DE,en;q=0.5,it;q=0.7") == .italian)
    #expect(Language(acceptLanguage: "fr, en-GB;q=0.8") == .english)
    #expect(Language(acceptLanguage: "it;q=0, en;q=0.1") == .english)
    #expect(Language(acceptLanguage: "fr-FR") == nil)
    #expect(Language(acceptLanguage: "") == nil)
    #expect(Language(tag: "IT-it") == .italian)
  }

  @Test("a translated text keeps every language, and reads back what it stored; an old plain column is English")
  func translatedTextStores() {
    let text = TranslatedText("Your taxi is here")
    #expect(text.text(in: .italian) == "Il tuo taxi è arrivato")
    #expect(text.translations == ["it": "Il tuo taxi è arrivato"])
    let stored = TranslatedText(stored: text.stored)
    #expect(stored.texts == text.texts)
    let old = TranslatedText(stored: "Train delayed")
    #expect(old.text(in: .italian) == "Train delayed" && old.english == "Train delayed")
    let sent = TranslatedText(english: "Hi", translations: ["it": "Ciao", "xx": "??"])
    #expect(sent.texts == [.english: "Hi", .italian: "Ciao"])
  }

  @Test("a number is written as each language writes it, to its decimals, trailing zeros dropped")
  func numbers() {
    #expect(PersonText.number(12.26).rendered(in: .english) == "12.3")
    #expect(PersonText.number(12.26).rendered(in: .italian) == "12,3")
    #expect(PersonText.number(25).rendered(in: .italian) == "25")
    #expect(PersonText.number(12_345.5).rendered(in: .english) == "12,345.5")
    #expect(PersonText.number(12_345.5).rendered(in: .italian) == "12.345,5")
    let text: PersonText = "Bike read \(PersonText.number(30.5)) µg/m³."
    #expect(TranslatedText(text).english == "Bike read 30.5 µg/m³.")
  }
}
