import AuthCore
import Foundation
import ShellKit
import Testing

/// The parser against the whole command table: every example of every help page, every flag on
/// every surface it claims, each value kind decoded once, when the line is parsed.
@Suite struct InvocationParserTests {
  static let surfaces: [(String, Surfaces)] = [("one-shot", .oneShot), ("shell", .repl), ("script", .script)]

  /// `authsh --json user show x` → `user show x --json`: the executable moves leading output
  /// flags after the command and takes connection flags itself.
  static func commandWords(ofExample example: String) throws -> [Word]? {
    guard let start = example.range(of: "authsh ") else { return nil }
    var line = String(example[start.upperBound...])
    for end in [" |", " &&", " >", " <", " &", ")\""] {
      if let cut = line.range(of: end) { line = String(line[..<cut.lowerBound]) }
    }
    var words = try WordSplitter.split(line)
    var moved: [Word] = []
    while let first = words.first, first.text.hasPrefix("--") {
      words.removeFirst()
      let flag = (CommandTable.outputFlags + CommandTable.connectionFlags).first { $0.name == first.text }
      let value = flag?.takesValue == true && !words.isEmpty ? [words.removeFirst()] : []
      if CommandTable.outputFlags.contains(where: { $0.name == first.text }) { moved += [first] + value }
    }
    return words + moved
  }

  @Test(arguments: CommandTable.all.filter { !$0.examples.isEmpty })
  func everyExampleParsesOnEverySurfaceItsCommandClaims(_ spec: CommandSpec) throws {
    for example in spec.examples {
      guard let words = try Self.commandWords(ofExample: example), words.first?.text == spec.words.first else {
        continue
      }
      for (label, surface) in Self.surfaces where spec.surfaces.contains(surface) {
        let usesOneShotOnly = words.contains { word in
          spec.flags.contains { $0.name == word.text && !$0.surfaces.contains(surface) }
        }
        if usesOneShotOnly { continue }
        let extra = surface == .oneShot ? CommandTable.connectionFlags : []
        switch InvocationParser.parse(words, surface: surface, extraFlags: extra) {
        case .success(let invocation): #expect(invocation.id == spec.id, "\(example) on the \(label)")
        case .failure(let problem): Issue.record("\(example) does not parse on the \(label): \(problem.fullMessage)")
        }
      }
    }
  }

  static func sample(_ kind: ValueKind?, choices: [String], bounds: ClosedRange<Double>?) -> String {
    if let first = choices.first { return first }
    switch kind {
    case .number?: return String(Int(bounds?.lowerBound ?? 1))
    case .duration?: return "30s"
    case .span?: return "7d"
    case .email?: return "ada@example.com"
    case .code?: return "123456"
    case .command?: return "login"
    default: return "value"
    }
  }

  /// The line of `spec` with every required argument and flag filled in.
  static func requiredWords(_ spec: CommandSpec, except: String? = nil) -> [String] {
    var words = spec.words
    for argument in spec.arguments where !argument.optional {
      words.append(sample(argument.kind, choices: argument.choices, bounds: nil))
    }
    for flag in spec.flags where flag.required && flag.name != except {
      words += [flag.name] + (flag.takesValue ? [sample(flag.kind, choices: flag.choices, bounds: flag.bounds)] : [])
    }
    return words
  }

  @Test(arguments: CommandTable.all)
  func everyFlagParsesOnEverySurfaceAndDecodesToItsKind(_ spec: CommandSpec) throws {
    for (label, surface) in Self.surfaces where spec.surfaces.contains(surface) {
      for flag in InvocationParser.flags(of: spec, surface: surface) {
        // A flag with a decoder of its own takes a value of its own kind.
        let value =
          flag.name == "--fault"
          ? ["POST /auth/v1/token 429"]
          : flag.takesValue ? [Self.sample(flag.kind, choices: flag.choices, bounds: flag.bounds)] : []
        let words = (Self.requiredWords(spec, except: flag.name) + [flag.name] + value).enumerated().map {
          Word(text: $1, start: $0, end: $0 + 1)
        }
        guard case .success(let invocation) = InvocationParser.parse(words, surface: surface) else {
          Issue.record("'\(words.map(\.text).joined(separator: " "))' does not parse on the \(label)")
          continue
        }
        let decoded = invocation.flags[flag.name]?.last
        switch (flag.takesValue ? flag.kind : nil, decoded) {
        case (nil, .on?), (.number?, .number?), (.duration?, .seconds?), (.span?, .span?): break
        case (_, .decoded?) where flag.decoder != nil: break
        case (let kind?, .text?) where ![ValueKind.number, .duration, .span].contains(kind): break
        default: Issue.record("\(spec.name) \(flag.name) decoded as \(String(describing: decoded)) on the \(label)")
        }
      }
    }
  }

  static func parse(_ line: String, _ surface: Surfaces = .script) throws -> Result<Invocation, UsageError> {
    InvocationParser.parse(try WordSplitter.split(line), surface: surface)
  }

  @Test(arguments: [
    ("user disable a@example.com --until 7d", 604_800), ("user disable a@example.com --until 2w", 1_209_600),
    ("user disable a@example.com --until 1y", 31_536_000), ("user disable a@example.com --until 36h", 129_600),
    ("audit --since 7d", 604_800), ("audit --since 90m", 5_400),
  ])
  func longSpansPastADayParse(_ line: String, _ seconds: Int) throws {
    for (label, surface) in Self.surfaces {
      let invocation = try Self.parse(line, surface).get()
      let key: FlagKey<Span> = invocation.id == .audit ? .since : .until
      #expect(invocation[key]?.seconds == seconds, "\(line) on the \(label)")
    }
  }

  @Test(arguments: [
    "user disable a@example.com --until 500ms", "user disable a@example.com --until 101y", "audit --since forever",
    "audit --since 0s",
  ])
  func spansOutOfRangeAreRefusedWhenTheLineIsParsed(_ line: String) throws {
    guard case .failure(let problem) = try Self.parse(line) else {
      Issue.record("\(line) parsed")
      return
    }
    #expect(problem.message.contains("takes a duration such as 24h, 7d or 2w"))
  }

  @Test func shortDurationsStayShort() throws {
    #expect(try Self.parse("whoami --timeout 30s").get()[.timeout] == 30)
    for line in ["whoami --timeout 25h", "whoami --timeout 7d", "whoami --timeout 0s", "sleep 25h"] {
      guard case .failure(let problem) = try Self.parse(line) else {
        Issue.record("\(line) parsed")
        return
      }
      #expect(problem.message.contains("up to 24h"), "\(line): \(problem.message)")
    }
  }

  @Test func aHoleIsDecodedOnceFilledIn() throws {
    let invocation = try Self.parse("user disable a@example.com --until {{ban}}").get()
    #expect(invocation.flags["--until"] == [.text("{{ban}}")])
    #expect(try Self.parse("user disable a@example.com --until 3d").get()[.until] == Span(seconds: 259_200))
  }

  /// A one-shot has no variables: `--port '{{x}}'` is a bad number, not a hole left unfilled (which
  /// read as no value at all, and the emulator took its default port).
  /// `login --password-stdin --password x` used to sign in with x, the stdin password unread.
  @Test func twoSourcesOfThePasswordAreAUsageError() throws {
    for line in [
      "login ada@example.com --password-stdin --password x", "login ada@example.com --password-env PW --password x",
      "signup ada@example.com --password x --password-stdin",
    ] {
      guard case .failure(let problem) = InvocationParser.parse(try WordSplitter.split(line), surface: .oneShot) else {
        Issue.record("\(line) parsed")
        continue
      }
      #expect(problem.message.hasSuffix("both give the password: use one"), "\(problem.message)")
    }
  }

  @Test func aOneShotHasNoHoles() throws {
    let words = try WordSplitter.split("user list --limit {{n}}")
    guard case .failure(let problem) = InvocationParser.parse(words, surface: .oneShot) else {
      Issue.record("--limit {{n}} parsed as a one-shot")
      return
    }
    #expect(problem.message == "--limit takes a number from 1 to 1000, not '{{n}}'")
    for surface in [Surfaces.repl, .script] {
      #expect(try InvocationParser.parse(words, surface: surface).get().flags["--limit"] == [.text("{{n}}")])
    }
    let emulator = try WordSplitter.split("emulator --port {{x}}")
    #expect(throws: UsageError.self) { try InvocationParser.parse(emulator, surface: .oneShot).get() }
  }

  @Test func numbersAreCheckedAgainstTheirBounds() throws {
    #expect(try Self.parse("user list --limit 1000").get()[.limit] == 1000)
    guard case .failure(let problem) = try Self.parse("user list --limit 1001") else {
      Issue.record("parsed")
      return
    }
    #expect(problem.message == "--limit takes a number from 1 to 1000, not '1001'")
  }

  /// A flag of other commands is said to be theirs, not "did you mean" a look-alike.
  @Test(arguments: [
    (
      "user create x@y.example --yes",
      "'user create' does not take --yes: it never asks for confirmation, so leave --yes out"
    ),
    ("user confirm x@y.example --soft", "'user confirm' does not take --soft (a flag of 'user delete')"),
    ("login --pasword x", "unknown flag '--pasword' for 'login'; did you mean '--password'?"),
  ])
  func aFlagOfAnotherCommandIsToldAsSuch(_ line: String, _ message: String) throws {
    guard case .failure(let problem) = try Self.parse(line, .oneShot) else {
      Issue.record("\(line) parsed")
      return
    }
    #expect(problem.fullMessage == message)
  }
}
