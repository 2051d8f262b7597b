import AuthCore

/// One decoder per value kind, run when a line is parsed (in a script: before anything runs),
/// in the way argument-parser's `ExpressibleByArgument` works. What the decoder refuses is a
/// usage error on every surface; what it accepts is what the handler reads.
extension FlagSpec {
  /// The value of `text` for this flag, or the message saying what it takes. With `holes` (a
  /// script or the shell, which fill them), a `{{…}}` hole is accepted as it stands: it is decoded
  /// once filled in. A one-shot command has nothing to fill it with, so it is decoded as written.
  package func decode(_ text: String, holes: Bool = true) -> Result<FlagValue, UsageError> {
    if !choices.isEmpty, !choices.contains(text) {
      return .failure(
        UsageError(
          "\(name) must be one of \(choices.joined(separator: ", ")), not '\(text)'",
          suggestion: Suggest.choice(for: text, among: choices)))
    }
    if holes, text.contains("{{") { return .success(.text(text)) }
    if let decoder {
      return decoder.decode(text).map { .decoded(DecodedValue(value: $0, text: text)) }
    }
    switch kind {
    case .number?:
      let range = bounds ?? 0...Double(Int.max)
      guard let number = Int(text.trimmingWhitespace), range.contains(Double(number)) else {
        return .failure(
          UsageError("\(name) takes a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)), not '\(text)'"))
      }
      return .success(.number(number, text))
    case .duration?:
      guard let seconds = Durations.seconds(text), (bounds ?? 0...Durations.maximumSeconds).contains(seconds) else {
        return .failure(UsageError("\(name) takes a duration up to 24h such as 30s or 2m, not '\(text)'"))
      }
      return .success(.seconds(seconds, text))
    case .span?:
      guard let seconds = Durations.longSeconds(text) else {
        return .failure(UsageError("\(name) takes a duration such as 24h, 7d or 2w (up to 100 years), not '\(text)'"))
      }
      return .success(.span(Span(seconds: seconds), text))
    default:
      return .success(.text(text))
    }
  }
}

extension ArgumentSpec {
  /// The value of a positional (choices checked, durations in seconds), or the message saying
  /// what it takes. A `{{…}}` hole is accepted as it stands (with `holes`): it is decoded once filled in.
  func decode(_ text: String, command: String, holes: Bool = true) -> Result<FlagValue, UsageError> {
    if !choices.isEmpty, !choices.contains(text) {
      return .failure(
        UsageError(
          "\(name) must be one of \(choices.joined(separator: ", ")), not '\(text)'",
          suggestion: Suggest.choice(for: text, among: choices)))
    }
    guard kind == .duration, !(holes && text.contains("{{")) else { return .success(.text(text)) }
    guard let seconds = Durations.seconds(text) else {
      return .failure(UsageError("\(command) takes a duration up to 24h such as 2s or 500ms, not '\(text)'"))
    }
    return .success(.seconds(seconds, text))
  }
}
