import Essentials
import Testing

/// What `String(format:)` printed before, now without Foundation.
struct NumberTextTests {
  @Test(arguments: [
    (0.0, 3, "0.000"), (1.5, 0, "2"), (2.5, 1, "2.5"), (0.0004, 3, "0.000"), (0.0005, 3, "0.001"),
    (12.345, 1, "12.3"), (-1.25, 1, "-1.3"), (-0.01, 1, "0.0"), (1234.5678, 3, "1234.568"), (99.96, 1, "100.0"),
  ])
  func fixedRoundsToThePlaces(_ value: Double, _ places: Int, _ text: String) {
    #expect(NumberText.fixed(value, places: places) == text)
  }

  @Test func fixedNeverTraps() {
    #expect(NumberText.fixed(.infinity, places: 1) == "inf")
    #expect(NumberText.fixed(.nan, places: 1) == "nan")
    #expect(!NumberText.fixed(1e300, places: 3).isEmpty)
  }

  @Test func zeroPaddedAndHex() {
    #expect(NumberText.zeroPadded(7, width: 2) == "07")
    #expect(NumberText.zeroPadded(123, width: 2) == "123")
    #expect(NumberText.zeroPadded(-7, width: 3) == "-007")
    #expect(NumberText.hex([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
  }
}
