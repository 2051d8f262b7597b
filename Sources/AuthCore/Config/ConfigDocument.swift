import Essentials
import JSONKit
import TOMLKit

/// `config.toml`, read by a TOML 1.0 parser (TOMLKit, over toml++) and checked against
/// `ConfigSchema`: a syntax error, an unknown key or table, a value of the wrong type, an undefined
/// `default_profile` or a URL without a scheme is a `config_error` naming file, line and key.
package struct ConfigDocument: Sendable {
  package let path: String
  /// The checked contents as JSON (tables become objects).
  package let root: JSON
  let lines: ConfigLines

  package static func parse(_ text: String, path: String) throws -> ConfigDocument {
    // The parser reads a C string: it would stop at a NUL and silently ignore the rest.
    if let nul = text.firstIndex(of: "\0") {
      let line = text[..<nul].reduce(1) { $1 == "\n" || $1 == "\r\n" ? $0 + 1 : $0 }
      throw AuthError(
        .configError, message: "\(path):\(line): contains a NUL byte", hint: "config.toml must be UTF-8 text.")
    }
    if let line = lineWithADeepKey(text) {
      throw AuthError(
        .configError, message: "\(path):\(line): a key or table nested more than \(maximumDottedParts) levels deep",
        hint: "config.toml holds [profiles.NAME] tables and an [emulator] table, nothing deeper.")
    }
    let table: TOMLTable
    do {
      table = try TOMLTable(string: text)
    } catch let failure as TOMLParseError {
      let position = failure.source.begin
      throw AuthError(
        .configError, message: "\(path):\(position.line):\(position.column): \(failure.description)",
        hint: "config.toml must be valid TOML 1.0 (https://toml.io).")
    }
    let document = ConfigDocument(path: path, root: Self.json(table), lines: ConfigLines(text))
    if let problem = ConfigChecker(document: document, table: table).firstProblem() { throw problem }
    return document
  }

  package var profileNames: [String] { (root["profiles"]?.object?.keys ?? []).sorted() }

  package func profile(_ name: String) -> JSON? { root["profiles"]?[name] }

  /// `[emulator] like_production = true`: the emulators start in the like-production mode.
  package var emulatorLikeProduction: Bool { root["emulator"]?["like_production"]?.bool ?? false }

  /// `[emulator] smtp = "custom"` (nil: not set; the built-in mail service).
  package var emulatorSMTP: String? { root["emulator"]?["smtp"]?.string }

  /// `[emulator] team = [...]`: the addresses the built-in mail service delivers to.
  package var emulatorTeam: [String] { root["emulator"]?["team"]?.array?.compactMap(\.string) ?? [] }

  /// `[emulator] captcha = true`: Supabase CAPTCHA protection.
  package var emulatorCaptcha: Bool { root["emulator"]?["captcha"]?.bool ?? false }

  /// A `config_error` whose message starts with `file:line:` for the key at `keyPath`.
  package func error(at keyPath: [String], _ message: String, hint: String? = nil) -> AuthError {
    AuthError(.configError, message: "\(location(keyPath)): \(message)", hint: hint)
  }

  func location(_ keyPath: [String]) -> String {
    lines.line(of: keyPath).map { "\(path):\($0)" } ?? path
  }

  /// toml++ reads a dotted key (`[a.a.a.…]`, `a.a.… = 1`) of any depth, recursing once a level:
  /// 30,000 ran it out of stack (exit 139, nothing said). No line of a real config comes near.
  static let maximumDottedParts = 1000

  /// The first line (1-based) whose key or table header has more dots than that; nil if none.
  /// Dots inside quoted keys count too, which only errs on the safe side of so large a number.
  static func lineWithADeepKey(_ text: String) -> Int? {
    for (index, line) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
      var dots = 0
      for byte in line {
        if byte == UInt8(ascii: "=") || byte == UInt8(ascii: "#") { break }
        if byte == UInt8(ascii: ".") { dots += 1 }
      }
      if dots > maximumDottedParts { return index + 1 }
    }
    return nil
  }

  /// Deeper than any table the schema knows (`[profiles.NAME]` holds plain values); what lies
  /// below is left out, and the checker refuses the table by name. A dotted key 10,000 levels
  /// deep (`[a.a.a.…]`, which toml++ reads) otherwise ran the conversion out of stack.
  static let maximumDepth = 16

  static func json(_ value: any TOMLValueConvertible, depth: Int = 0) -> JSON {
    guard depth < maximumDepth else { return .null }
    switch value.type {
    case .table:
      guard let table = value.table else { return .null }
      var object = JSONObject()
      for key in table.keys {
        if let child = table[key] { object[key] = json(child, depth: depth + 1) }
      }
      return .object(object)
    case .array:
      guard let array = value.array else { return .null }
      return .array(array.map { json($0, depth: depth + 1) })
    case .string: return value.string.map(JSON.string) ?? .null
    case .int: return value.int.map(JSON.int) ?? .null
    case .double: return value.double.map(JSON.double) ?? .null
    case .bool: return value.bool.map(JSON.bool) ?? .null
    case .date, .time, .dateTime: return .string(value.tomlValue.debugDescription)
    }
  }
}

/// Checks a parsed table against `ConfigSchema`; problems come back in file order.
struct ConfigChecker {
  let document: ConfigDocument
  let table: TOMLTable

  func firstProblem() -> AuthError? {
    var problems: [(line: Int, error: AuthError)] = []
    func report(_ keyPath: [String], _ message: String, hint: String? = nil) {
      problems.append((document.lines.line(of: keyPath) ?? Int.max, document.error(at: keyPath, message, hint: hint)))
    }
    let topNames = ConfigSchema.topLevelKeys.map(\.name) + ConfigSchema.tables
    for key in table.keys {
      guard let value = table[key] else { continue }
      if let schema = ConfigSchema.topLevelKeys.first(where: { $0.name == key }) {
        if let problem = Self.problem(with: value, for: schema) { report([key], problem) }
      } else if key == "emulator" {
        checkEmulator(value, report: report)
      } else if ConfigSchema.tables.contains(key) {
        checkProfiles(value, report: report)
      } else {
        let what = value.type == .table ? "table [\(key)]" : "key '\(key)'"
        report(
          [key], "unknown \(what)" + Self.didYouMean(key, among: topNames),
          hint: "Known: \(topNames.joined(separator: ", ")).")
      }
    }
    // A misspelt [profiles] table would make every default_profile look undefined: report the typo.
    if problems.isEmpty, let name = table["default_profile"]?.string, document.profile(name) == nil {
      let known = document.profileNames
      report(
        ["default_profile"],
        "default_profile = \"\(name)\" is not a profile in this file" + Self.didYouMean(name, among: known),
        hint: known.isEmpty ? "Add a [profiles.\(name)] table." : "Defined profiles: \(known.joined(separator: ", ")).")
    }
    return problems.min { $0.line < $1.line }?.error
  }

  private func checkEmulator(
    _ value: any TOMLValueConvertible, report: (_ keyPath: [String], _ message: String, _ hint: String?) -> Void
  ) {
    guard let table = value.table else {
      report(["emulator"], "emulator must be a table ([emulator]), not \(Self.article(value.type))", nil)
      return
    }
    let known = ConfigSchema.emulatorKeys.map(\.name)
    for key in table.keys {
      guard let value = table[key] else { continue }
      guard let schema = ConfigSchema.emulatorKeys.first(where: { $0.name == key }) else {
        report(
          ["emulator", key], "unknown key '\(key)' in [emulator]" + Self.didYouMean(key, among: known),
          "Keys: \(known.joined(separator: ", ")).")
        continue
      }
      if let problem = Self.problem(with: value, for: schema) { report(["emulator", key], problem, nil) }
    }
  }

  private func checkProfiles(
    _ value: any TOMLValueConvertible, report: (_ keyPath: [String], _ message: String, _ hint: String?) -> Void
  ) {
    guard let profiles = value.table else {
      report(
        ["profiles"], "profiles must be a table of profiles ([profiles.NAME]), not \(Self.article(value.type))", nil)
      return
    }
    let known = ConfigSchema.profileKeys.map(\.name)
    let hint = "Profile keys: \(known.joined(separator: ", "))."
    for name in profiles.keys {
      guard let profile = profiles[name]?.table else {
        report(["profiles", name], "profiles.\(name) must be a table ([profiles.\(name)])", nil)
        continue
      }
      for key in profile.keys {
        guard let value = profile[key] else { continue }
        let keyPath = ["profiles", name, key]
        guard let schema = ConfigSchema.profileKey(key) else {
          let what = value.type == .table ? "table [profiles.\(name).\(key)]" : "key '\(key)' in [profiles.\(name)]"
          report(keyPath, "unknown \(what)" + Self.didYouMean(key, among: known), hint)
          continue
        }
        if let problem = Self.problem(with: value, for: schema) { report(keyPath, problem, nil) }
      }
    }
  }

  /// What is wrong with `value` for `key`, or nil.
  static func problem(with value: any TOMLValueConvertible, for key: ConfigSchema.Key) -> String? {
    let kindMatches: Bool
    switch key.kind {
    case .string: kindMatches = value.type == .string
    case .number: kindMatches = value.type == .int || value.type == .double
    case .boolean: kindMatches = value.type == .bool
    case .strings:
      kindMatches = value.type == .array && (value.array.map { $0.allSatisfy { $0.type == .string } } ?? false)
    }
    guard kindMatches else {
      let expected: String
      switch key.kind {
      case .string: expected = "a string (in quotes)"
      case .number: expected = "a number"
      case .boolean: expected = "true or false"
      case .strings: expected = "a list of strings, e.g. [\"ada@example.com\"],"
      }
      return "\(key.name) must be \(expected), not \(article(value.type))"
    }
    switch key.check {
    case .oneOf(let choices):
      guard let text = value.string, !choices.contains(text) else { return nil }
      return "\(key.name) = \"\(text)\" must be one of \(choices.map { "\"\($0)\"" }.joined(separator: ", "))"
        + didYouMean(text, among: choices)
    case .url:
      guard let text = value.string else { return nil }
      return urlProblem(text, key: key.name)
    case .hostAndPort:
      guard let text = value.string else { return nil }
      if text.contains("://") {
        return "\(key.name) takes host:port without a scheme; did you mean '\(Target.hostAndPort(text))'?"
      }
      guard let port = text.split(separator: ":").last.flatMap({ Int($0) }), text.contains(":"),
        (1...65535).contains(port)
      else {
        return "\(key.name) = \"\(text)\" must be host:port, e.g. 127.0.0.1:9099"
      }
      return nil
    case .positive:
      guard (value.double ?? value.int.map(Double.init) ?? 0) <= 0 else { return nil }
      return "\(key.name) must be more than 0"
    case nil: return nil
    }
  }

  static func urlProblem(_ text: String, key: String) -> String? {
    guard let schemeEnd = text.firstRange(of: "://") else {
      let host = text.drop { $0 == "/" }
      return "\(key) = \"\(text)\" has no scheme; did you mean 'https://\(host)'?"
    }
    let scheme = text[..<schemeEnd.lowerBound].lowercased()
    guard scheme == "https" || scheme == "http" else {
      return "\(key) = \"\(text)\" must start with https:// (or http:// for a loopback emulator)"
    }
    let host = text[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !host.isEmpty, !host.contains(" ") else { return "\(key) = \"\(text)\" has no host" }
    return nil
  }

  static func article(_ type: TOMLType) -> String {
    let name = type.description
    return ("aeiou".contains(name.first ?? "x") ? "an " : "a ") + name
  }

  static func didYouMean(_ input: String, among candidates: [String]) -> String {
    Suggest.closest(to: input, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
  }
}
