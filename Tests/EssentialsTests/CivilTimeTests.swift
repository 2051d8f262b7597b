import Essentials
import Testing

struct CivilTimeTests {
  @Test(arguments: [
    (1_709_210_096, "2024-02-29T12:34:56Z"), (0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"),
    (951_825_600, "2000-02-29T12:00:00Z"), (253_402_300_799, "9999-12-31T23:59:59Z"),
    (-62_167_219_200, "0000-01-01T00:00:00Z"),
    (253_402_300_800, "10000-01-01T00:00:00Z"), (-62_167_219_201, "-0001-12-31T23:59:59Z"),
  ])
  func secondsAreWholeSecondsUTC(_ seconds: Int, _ text: String) {
    #expect(CivilTime.iso8601(seconds: seconds) == text)
  }

  @Test(arguments: [
    (0, "1970-01-01T00:00:00.000Z"), (1_767_323_045_678, "2026-01-02T03:04:05.678Z"), (-1, "1969-12-31T23:59:59.999Z"),
    (1_000, "1970-01-01T00:00:01.000Z"),
  ])
  func millisecondsAreJavaScriptsToISOString(_ milliseconds: Int, _ text: String) {
    #expect(CivilTime.iso8601(milliseconds: milliseconds) == text)
  }

  /// An imported account's timestamp is whatever the file says: no value traps.
  @Test(arguments: [Int.min, Int.min + 1, Int.max, Int.max - 999])
  func anyIntegerIsWrittenWithoutTrapping(_ value: Int) {
    #expect(CivilTime.iso8601(seconds: value).hasSuffix("Z"))
    #expect(CivilTime.iso8601(milliseconds: value).hasSuffix("Z"))
  }

  @Test func daysAndDatesAreInverse() {
    for days in stride(from: -800_000, to: 3_000_000, by: 997) {
      let (year, month, day) = CivilTime.civilFromDays(days)
      #expect(CivilTime.daysFromCivil(year, month, day) == days)
    }
  }
}
