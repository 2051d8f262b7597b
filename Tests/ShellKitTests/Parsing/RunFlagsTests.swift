import AuthCore
import AuthTestSupport
import ShellKit
import Testing

/// argv's one flag reader: the run's flags before the command word (`parseLeading`) read as they
/// are after it, and the `--json` of a line that does not parse found by the command's flags.
@Suite struct RunFlagsTests {
  static func words(_ texts: [String]) -> [Word] {
    texts.enumerated().map { Word(text: $1, start: $0, end: $0 + 1) }
  }

  @Test func theRunsFlagsEndAtTheCommandWord() throws {
    let leading = try InvocationParser.parseLeading(
      Self.words(["--profile", "prod", "--json", "--color=never", "whoami", "--profile", "x"])
    ).get()
    #expect(leading.flags[FlagKey.profile] == "prod")
    #expect(leading.outputWords == ["--json", "--color=never"])
    #expect(leading.rest.map(\.text) == ["whoami", "--profile", "x"])
    let asks = try InvocationParser.parseLeading(Self.words(["-h", "-V"])).get()
    #expect(asks.help && asks.version && asks.rest.isEmpty)
  }

  @Test func aLeadingMistakeIsSaidAsTheCommandsParseSaysIt() throws {
    func problem(_ texts: String...) -> String? {
      if case .failure(let problem) = InvocationParser.parseLeading(Self.words(texts)) { return problem.fullMessage }
      return nil
    }
    #expect(problem("--bogus") == "unknown flag '--bogus'")
    #expect(problem("--profile") == "--profile needs a value (NAME)")
    #expect(problem("--emulator=yes") == "--emulator takes no value")
    // One message for a bad value wherever the flag stands.
    let after = InvocationParser.parse(
      Self.words(["whoami", "--provider", "fire"]), surface: .oneShot, extraFlags: CommandTable.connectionFlags)
    guard case .failure(let afterProblem) = after else {
      Issue.record("'whoami --provider fire' parsed")
      return
    }
    #expect(problem("--provider", "fire", "whoami") == afterProblem.fullMessage)
    // An output flag is decoded with the command it goes to, not here.
    #expect(problem("--color", "sometimes", "whoami") == nil)
  }

  /// Generated lines: any connection flags, with their values, decode the same before the
  /// command word as after it.
  @Test(arguments: [1, 2, 3, 4, 5])
  func connectionFlagsReadTheSameOnEitherSide(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    let values: [String: [String]] = [
      "--profile": ["prod", "staging", "a b"], "--tenant": ["t-1", "tenant2"], "--provider": ["supabase", "firebase"],
      "--url": ["http://127.0.0.1:9999", "https://x.supabase.co"], "--key": ["k", "anon-key"],
      "--credential-store": ["auto", "keyring", "file"], "--seed": ["seed.json"],
    ]
    for _ in 0..<50 {
      var given: [String] = []
      for flag in CommandTable.connectionFlags where random.next() % 2 == 0 {
        guard flag.takesValue else {
          given.append(flag.name)
          continue
        }
        let choices = values[flag.name] ?? ["v"]
        let value = choices[Int(random.next() % UInt64(choices.count))]
        given += random.next() % 2 == 0 ? [flag.name, value] : [flag.name + "=" + value]
      }
      let before = try InvocationParser.parseLeading(Self.words(given + ["whoami"])).get()
      let after = try InvocationParser.parse(
        Self.words(["whoami"] + given), surface: .oneShot, extraFlags: CommandTable.connectionFlags
      ).get()
      #expect(before.flags.values == after.flags, "\(given)")
      #expect(before.rest.map(\.text) == ["whoami"])
    }
  }

  @Test func jsonIsFoundByTheFlagsOfTheCommandTheLineNames() {
    func asksForJSON(_ texts: String...) -> Bool {
      if case .failure(let problem) = InvocationParser.parse(Self.words(texts), surface: .oneShot) {
        return problem.asksForJSON
      }
      Issue.record("\(texts) parsed")
      return false
    }
    #expect(asksForJSON("login", "--pasword", "x", "--json"))
    #expect(asksForJSON("frobnicate", "--json"))
    #expect(asksForJSON("version", "--json"))
    // A flag the command does not take takes no value: `--json` after it still counts.
    #expect(asksForJSON("whoami", "--email", "--json"))
    // A value is not a flag: `signup --name --json` names someone `--json`.
    #expect(!asksForJSON("signup", "--name", "--json", "--bogus"))
    #expect(!asksForJSON("whoami", "--bogus", "--", "--json"))
    #expect(!asksForJSON("whoami", "--bogus"))
  }
}
