import AuthCore
import AuthEmulator
import ShellKit
import Testing

/// `authsh emulator`'s flags, decoded once by the table's parser: what the executable maps onto
/// the emulator's configuration, and the usage errors a bad value gets before anything starts.
@Suite struct EmulatorFlagsTests {
  static func parse(_ arguments: [String]) -> Result<Invocation, UsageError> {
    let words = (["emulator"] + arguments).enumerated().map { Word(text: $1, start: $0, end: $0 + 1) }
    return InvocationParser.parse(words, surface: .oneShot)
  }

  @Test func flagsDecodeToTheirTypes() throws {
    let invocation = try Self.parse([
      "--host", "0.0.0.0", "--port=0", "--project", "demo-x", "--state", "/tmp/s.sqlite", "--confirm-email",
      "--email-privacy", "--jwt-secret", "s3cret", "--latency-ms", "25", "--fault", "POST /auth/v1/token 429x2",
      "--fault", "GET /auth/v1/user drop", "--bcrypt-cost", "5", "--refresh-reuse-interval", "10",
      "--mail-frequency", "1", "--idle-timeout", "5", "--session-timebox", "86400",
      "--session-inactivity-timeout=3600", "--seed", "a.jsonl", "--anonymous-sign-ins", "--like-production",
      "--mfa-rate-limit", "6",
    ]).get()
    #expect(
      invocation[.emulatorHost] == "0.0.0.0" && invocation[.emulatorPort] == 0 && invocation[.project] == "demo-x")
    #expect(invocation[.state] == "/tmp/s.sqlite" && invocation[.confirmEmail] && invocation[.emailPrivacy])
    #expect(invocation[.jwtSecret] == "s3cret" && invocation[.latency] == 25)
    let faults = invocation.all(.fault)
    #expect(faults.count == 2 && faults[0].times == 2 && faults[0].status == 429 && faults[1].preset == .drop)
    #expect(invocation[.bcryptCost] == 5 && invocation[.refreshReuseInterval] == 10 && invocation[.mailFrequency] == 1)
    #expect(
      invocation[.idleTimeout] == 5 && invocation[.sessionTimebox] == 86400
        && invocation[.sessionInactivityTimeout] == 3600)
    #expect(invocation[.seed] == "a.jsonl" && invocation[.anonymousSignIns] && invocation[.emulatorLikeProduction])
    #expect(invocation.text(of: .fault) == "GET /auth/v1/user drop")
    #expect(invocation[.mfaRateLimit] == 6)
    if case .success = Self.parse(["--mfa-rate-limit", "0"]) { Issue.record("--mfa-rate-limit 0 is out of bounds") }
  }

  @Test func teamAddressesAreRepeatedOrSeparatedByCommas() throws {
    let invocation = try Self.parse([
      "--like-production", "--smtp", "built-in", "--team", "ada@example.com,bob@example.com", "--team=cy@example.com",
      "--captcha",
    ]).get()
    #expect(invocation.all(.team).flatMap { $0 } == ["ada@example.com", "bob@example.com", "cy@example.com"])
    #expect(invocation[.smtp] == "built-in" && invocation[.captcha])
    #expect(try Self.parse(["--smtp=custom"]).get()[.smtp] == "custom")
    // The executable maps the choice onto the emulator's own names.
    #expect(FlagKey.smtp.spec.choices == EmulatorSMTP.allCases.map(\.rawValue))
  }

  @Test(arguments: [
    (["--port"], "--port needs a value (PORT)"),
    (["--port", "x"], "--port takes a number from 0 to 65535, not 'x'"),
    (["--port", "70000"], "--port takes a number from 0 to 65535, not '70000'"),
    (["--bogus"], "unknown flag '--bogus' for 'emulator'"),
    (["--confirm-email=yes"], "--confirm-email takes no value"),
    (["--like-production=1"], "--like-production takes no value"),
    (["--captcha=yes"], "--captcha takes no value"),
    (["--fault", "nonsense"], "--fault: fault \"nonsense\": expected \"METHOD PATH STATUS|PRESET[xN]\""),
    (["--fault", "POST /x teapot"], "--fault: fault \"POST /x teapot\": \"teapot\" is neither a status nor a preset"),
    (["--state", ""], "--state needs a non-empty value"),
    (["--host="], "--host needs a non-empty value"),
    (["--seed"], "--seed needs a value (FILE)"),
    (["--idle-timeout", "0"], "--idle-timeout takes a number from 1 to 86400, not '0'"),
    (["--session-timebox", "-1"], "--session-timebox takes a number from 0 to 31536000, not '-1'"),
    (["--smtp", "postfix"], "--smtp must be one of built-in, custom, not 'postfix'"),
    (["--team", "not-an-address"], "--team expects e-mail addresses, e.g. --team ada@example.com"),
  ])
  func badValuesAreUsageErrorsWhenTheLineIsParsed(_ arguments: [String], _ message: String) {
    guard case .failure(let problem) = Self.parse(arguments) else {
      Issue.record("\(arguments) parsed")
      return
    }
    #expect(problem.message.hasPrefix(message), "\(problem.message)")
  }
}
