import AuthCore

/// `30s`, `500ms`, `2m`, `1.5` (seconds) → seconds.
public enum Durations {
  public static func seconds(_ text: String) -> Double? {
    let trimmed = text.trimmingWhitespace.lowercased()
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
    for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
      guard let value = Double(trimmed.dropLast(suffix.count)), value >= 0, value.isFinite else { return nil }
      return value * factor
    }
    guard let value = Double(trimmed), value >= 0, value.isFinite else { return nil }
    return value
  }

  /// "59m 12s", "3s", "2h 5m" for humans.
  public static func describe(_ seconds: Int) -> String {
    if seconds < 0 { return "expired \(describe(-seconds)) ago" }
    if seconds < 60 { return "\(seconds)s" }
    if seconds < 3600 { return "\(seconds / 60)m \(seconds % 60)s" }
    return "\(seconds / 3600)h \(seconds % 3600 / 60)m"
  }
}
