import Foundation
import Testing

@testable import SchedulingService

@Suite("Service days in the timetable's zone: noon minus 12 hours, clock changes included")
struct ServiceDayZoneTests {
  let rome = ServiceDayZone(identifier: "Europe/Rome")!

  private func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

  @Test func aServiceTimeIsAnInstantOnItsServiceDay() {
    let wednesday = ServiceDate(year: 2026, month: 11, day: 25)!
    #expect(self.rome.instant(of: ServiceTime(gtfs: "08:00:00")!, on: wednesday) == self.utc("2026-11-25T07:00:00Z"))
    // 25:13 of Wednesday's service day is 01:13 on Thursday morning.
    #expect(self.rome.instant(of: ServiceTime(gtfs: "25:13:00")!, on: wednesday) == self.utc("2026-11-26T00:13:00Z"))
  }

  @Test func theDaysTheClocksChangeKeepTimesEvenlySpaced() {
    // Summer time ends on 25 October 2026: 08:00 is 08:00 CET (07:00 UTC), not CEST.
    let autumn = ServiceDate(year: 2026, month: 10, day: 25)!
    #expect(self.rome.start(of: autumn) == self.utc("2026-10-24T23:00:00Z"))
    #expect(self.rome.instant(of: ServiceTime(gtfs: "08:00:00")!, on: autumn) == self.utc("2026-10-25T07:00:00Z"))
    // Summer time starts on 29 March 2026: 08:00 is 08:00 CEST (06:00 UTC).
    let spring = ServiceDate(year: 2026, month: 3, day: 29)!
    #expect(self.rome.instant(of: ServiceTime(gtfs: "08:00:00")!, on: spring) == self.utc("2026-03-29T06:00:00Z"))
  }

  @Test func anInstantFallsOnOneServiceDateAndTime() {
    let (date, time) = self.rome.serviceTime(at: self.utc("2026-11-26T00:13:00Z"))
    #expect(date == ServiceDate(year: 2026, month: 11, day: 26)! && time.description == "01:13:00")
    for instant in ["2026-10-24T23:30:00Z", "2026-10-25T12:00:00Z", "2026-03-28T23:30:00Z", "2026-03-29T01:30:00Z"] {
      let (day, seconds) = self.rome.serviceTime(at: self.utc(instant))
      #expect(self.rome.instant(of: seconds, on: day) == self.utc(instant), "\(instant)")
      #expect((0 ..< 90_000).contains(seconds.secondsSinceServiceDayStart))
    }
  }
}
