import ShellKit
import Testing

@Suite struct DurationsTests {
  @Test(arguments: [("30s", 30.0), ("500ms", 0.5), ("2m", 120.0), ("1.5", 1.5), ("24h", 86_400.0), ("0", 0.0), ("1e3ms", 1.0)])
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
