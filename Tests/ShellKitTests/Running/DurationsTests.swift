import ShellKit
import Testing

@Suite struct DurationsTests {
  @Test(arguments: [
    ("30s", 30.0), ("500ms", 0.5), ("2m", 120.0), ("1.5", 1.5), ("24h", 86_400.0), ("0", 0.0), ("1e3ms", 1.0),
  ])
  func parses(_ text: String, _ seconds: Double) {
    #expect(Durations.seconds(text) == seconds)
  }

  /// Out of range or not plain decimals: nil, which callers turn into a usage error.
  @Test(arguments: [
    "10000000000000000000s", "1e300", "1e400s", "inf", "-inf", "nan", "infinity", "0x10", "0x1p3s", "-1s", "25h",
    "86401", "", "s", "ms", "1_000", "12abc",
  ])
  func refuses(_ text: String) {
    #expect(Durations.seconds(text) == nil)
  }

  @Test func describeNeverTraps() {
    #expect(Durations.describe(Int.min).hasPrefix("expired "))
    #expect(Durations.describe(Int.max).hasSuffix("m"))
  }
}

@Suite struct LongDurationTests {
  @Test func banAndAuditSpansTakeDaysAndWeeks() {
    #expect(Durations.longSeconds("7d") == 604_800)
    #expect(Durations.longSeconds("2w") == 1_209_600)
    #expect(Durations.longSeconds("36h") == 129_600, "past the 24h request-timeout limit")
    #expect(Durations.longSeconds("90s") == 90)
    #expect(Durations.longSeconds("0s") == nil)
    #expect(Durations.longSeconds("0d") == nil)
    #expect(Durations.longSeconds("-1d") == nil)
    #expect(Durations.longSeconds("1e9d") == nil)
    #expect(Durations.longSeconds("soon") == nil)
    #expect(Durations.longSeconds("500ms") == nil, "below a second")
    #expect(Durations.longSeconds("30") == nil, "a unit is needed")
  }
}
