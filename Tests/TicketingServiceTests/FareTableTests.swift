import BinarioDomain
import Foundation
import Testing

@testable import TicketingService

@Suite("The fare table")
struct FareTableTests {
  let table = try! FareTable.decode(TestTicketing.demoFares)

  @Test("zone ranges with the first zone cover Mi1-Mi3 at least and have their own price; others go by count")
  func zonePricing() throws {
    #expect(try table.zoneFare(ZoneRange(parsing: "Mi1-Mi3", in: table)!).single == 220)
    #expect(try table.zoneFare(ZoneRange(parsing: "mi1-mi5", in: table)!).single == 300)
    #expect(try table.zoneFare(ZoneRange(parsing: "Mi4-Mi5", in: table)!).single == 170)
    #expect(try table.zoneFare(ZoneRange(parsing: "Mi3-Mi5", in: table)!).single == 210)
    #expect(throws: ServiceError.invalid("zones", "a range with Mi1 covers Mi1-Mi3 at least")) {
      try table.zoneFare(ZoneRange(parsing: "Mi1", in: table)!)
    }
    #expect(ZoneRange(parsing: "Mi5-Mi3", in: table) == nil)
    #expect(ZoneRange(parsing: "Mi10", in: table) == nil)
  }

  @Test("distance bands: rounded up to whole kilometres, the first band that holds them")
  func bands() {
    #expect(table.band(forMetres: 10_000)?.secondClass == 230)
    #expect(table.band(forMetres: 10_001)?.secondClass == 290)
    #expect(table.band(forMetres: 45_347)?.firstClass == 800)
    #expect(table.band(forMetres: 251_000) == nil)
  }

  @Test("a malformed table names what is wrong")
  func malformed() {
    var broken = table
    broken.distanceBands[2].upToKm = 5
    broken.currency = "euro"
    #expect(throws: ServiceError.self) { try broken.check() }
    do {
      try broken.check()
    } catch {
      #expect(error.description.contains("distanceBands[2].upToKm") && error.description.contains("currency"))
    }
    let missing = Data(#"{"currency": "EUR"}"#.utf8)
    #expect(throws: ServiceError.self) { try FareTable.decode(missing) }
  }
}

@Suite("Calendar dates")
struct CalendarDateTests {
  @Test("months keep the day, or the month's last where it is shorter; days between; the day in a zone")
  func arithmetic() {
    let date = CalendarDate(iso: "2027-01-31")!
    #expect(date.adding(months: 1).description == "2027-02-28")
    #expect(date.adding(months: 13).description == "2028-02-29")
    #expect(date.adding(months: -2).description == "2026-11-30")
    #expect(date.days(until: CalendarDate(iso: "2027-03-01")!) == 29)
    // 23:30 UTC on 9 March is already 10 March in Rome.
    let lateEvening = Date(timeIntervalSince1970: 1_804_635_000)
    #expect(CalendarDate(lateEvening, in: TimeZone(identifier: "Europe/Rome")!).description == "2027-03-10")
    #expect(CalendarDate(lateEvening, in: TimeZone(identifier: "UTC")!).description == "2027-03-09")
  }

  @Test("renewals count from the start date, so month ends do not drift; a trial's first charge is its last day")
  func renewals() {
    func details(_ period: SubscriptionPeriod, trial: String? = nil) -> SubscriptionDetails {
      SubscriptionDetails(
        serviceName: "Netflix",
        customServiceName: false,
        planType: "",
        customPlanType: false,
        startDate: CalendarDate(iso: "2027-01-31")!,
        period: period,
        price: Money(amountMinor: 999, currency: "EUR"),
        cardLast4: "",
        automaticRenewal: false,
        category: .moviesAndTV,
        trialEndsOn: trial.flatMap { CalendarDate(iso: $0) }
      )
    }
    func first(_ details: SubscriptionDetails, _ day: String) -> String {
      Subscription.firstCharge(details, onOrAfter: CalendarDate(iso: day)!).description
    }
    #expect(first(details(.monthly), "2027-03-01") == "2027-03-31")
    #expect(first(details(.monthly), "2027-02-10") == "2027-02-28")
    #expect(first(details(.weekly), "2027-01-31") == "2027-02-07")
    #expect(first(details(.monthly, trial: "2027-02-14"), "2027-01-31") == "2027-02-14")
    #expect(first(details(.monthly, trial: "2027-02-14"), "2027-02-15") == "2027-03-14")
  }
}
