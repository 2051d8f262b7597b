import AuthCore
import Essentials
import HostedLimits
import Testing

/// `diagnose`: the findings, their order and the fixing command, from the admin view alone.
@Suite struct DiagnosisRulesTests {
  let now = UnixTime.parseISO("2026-11-23T12:00:00Z") ?? 0

  func user(
    confirmed: Bool = true, disabled: Bool = false, until: String? = nil, methods: [String] = ["password"],
    recovery: String? = nil, confirmation: String? = nil
  ) -> AdminUser {
    AdminUser(
      id: "u1", email: "ada@example.com", confirmed: confirmed, disabled: disabled, disabledUntil: until,
      methods: methods, recoverySentAt: recovery, confirmationSentAt: confirmation)
  }

  func codes(_ diagnosis: Diagnosis) -> [String] { diagnosis.findings.map(\.code) }

  @Test func noAccountSuggestsLookingForSimilarAddresses() {
    let d = Diagnosis.evaluate(email: "ada@example.com", user: nil, provider: .supabase, settings: nil, now: now)
    #expect(codes(d) == ["no_account"])
    #expect(!d.canSignIn)
    #expect(d.findings[0].fix == "authsh user list --filter ada")
  }

  @Test func everyBlockerIsReportedInOrderWithItsFix() {
    let d = Diagnosis.evaluate(
      email: "ada@example.com",
      user: user(confirmed: false, disabled: true, until: "2026-11-24T00:00:00Z", methods: ["google"]),
      provider: .supabase, settings: ProjectSettings(requiresEmailConfirmation: true), now: now)
    #expect(codes(d) == ["no_password", "email_unconfirmed", "disabled"])
    #expect(
      d.findings.map(\.fix) == [
        "authsh user link recovery ada@example.com", "authsh user confirm ada@example.com",
        "authsh user enable ada@example.com",
      ])
    #expect(d.findings[0].message.contains("signed up with Google. Ask them to use that button"))
    #expect(d.findings[2].message.contains("until 2026-11-24T00:00:00Z"))
    #expect(!d.canSignIn)
  }

  @Test func unconfirmedBlocksOnSupabaseAndIsANoteOnFirebase() {
    let supabase = Diagnosis.evaluate(
      email: "ada@example.com", user: user(confirmed: false), provider: .supabase,
      settings: ProjectSettings(requiresEmailConfirmation: false), now: now)
    #expect(!supabase.canSignIn, "GoTrue refuses unconfirmed addresses whatever the setting")
    #expect(codes(supabase) == ["email_unconfirmed"])
    let firebase = Diagnosis.evaluate(
      email: "ada@example.com", user: user(confirmed: false), provider: .firebase, settings: nil, now: now)
    #expect(firebase.canSignIn, "Firebase lets unverified users sign in")
    #expect(codes(firebase) == ["email_unconfirmed", "ok", "rate_limit_possible"])
  }

  @Test func aPendingRecoveryMailAndTheClosedResendWindowAreNotes() {
    let d = Diagnosis.evaluate(
      email: "ada@example.com", user: user(recovery: "2026-11-23T11:59:30.123456Z"), provider: .supabase,
      settings: ProjectSettings(requiresEmailConfirmation: true, mailInterval: 60), now: now)
    #expect(codes(d) == ["recovery_pending", "resend_window_closed", "ok", "rate_limit_possible"])
    #expect(d.canSignIn)
    #expect(d.findings[0].fix == "authsh user link recovery ada@example.com")
    #expect(d.findings[1].message.contains("30 s more"))
    let old = Diagnosis.evaluate(
      email: "ada@example.com", user: user(recovery: "2026-11-23T09:00:00Z"), provider: .supabase, settings: nil,
      now: now)
    #expect(codes(old) == ["ok", "rate_limit_possible"], "a recovery link older than an hour has expired")
  }

  @Test(
    "after `user link recovery` (generate_link sets recovery_sent_at) no mail is claimed: a link or mail was issued")
  func recoveryLinkOrMail() {
    let d = Diagnosis.evaluate(
      email: "ada@example.com", user: user(recovery: "2026-11-23T11:30:00Z"), provider: .supabase, settings: nil,
      now: now)
    let message = d.findings[0].message
    #expect(message.hasPrefix("A recovery link or mail was issued at 2026-11-23T11:30:00Z"))
    #expect(!message.contains("went out"))
    #expect(message.contains("until about 2026-11-23T12:30:00Z"))
  }

  @Test("the link lifetime is the hosted one the emulator uses too (3600 s)")
  func oneLinkLifetime() {
    #expect(Diagnosis.linkLifetime == ProductionLimits.Supabase.linkLifetime)
    #expect(Diagnosis.linkLifetime == 3600)
  }

  @Test("mail windows are per kind: a recent recovery link does not hold back a confirmation mail")
  func perKindWindows() {
    // Confirmation mail 10 min ago (window over), recovery link 20 s ago (window open).
    let recent = Diagnosis.evaluate(
      email: "ada@example.com",
      user: user(confirmed: false, recovery: "2026-11-23T11:59:40Z", confirmation: "2026-11-23T11:50:00Z"),
      provider: .supabase, settings: ProjectSettings(mailInterval: 60), now: now)
    let windows = recent.findings.filter { $0.code == "resend_window_closed" }
    #expect(windows.count == 1)
    #expect(windows[0].message.contains("next recovery mail after 40 s more"))
    #expect(windows[0].fix == "authsh user link recovery ada@example.com")
    // Both open: one note each, each with its own remaining time.
    let both = Diagnosis.evaluate(
      email: "ada@example.com",
      user: user(confirmed: false, recovery: "2026-11-23T11:59:40Z", confirmation: "2026-11-23T11:59:10Z"),
      provider: .supabase, settings: ProjectSettings(mailInterval: 60), now: now)
    let notes = both.findings.filter { $0.code == "resend_window_closed" }.map(\.message)
    #expect(notes.count == 2)
    #expect(notes.contains { $0.contains("next confirmation mail after 10 s more") })
    #expect(notes.contains { $0.contains("next recovery mail after 40 s more") })
    // A confirmed account's old confirmation time is no window at all.
    let confirmed = Diagnosis.evaluate(
      email: "ada@example.com", user: user(confirmation: "2026-11-23T11:59:50Z"), provider: .supabase,
      settings: ProjectSettings(mailInterval: 60), now: now)
    #expect(!confirmed.findings.contains { $0.code == "resend_window_closed" })
  }

  @Test("an account with no way in at all (Firebase, created without a password) has no password")
  func noMethodsIsNoPassword() {
    let d = Diagnosis.evaluate(
      email: "ada@example.com", user: user(methods: []), provider: .firebase, settings: nil, now: now)
    #expect(codes(d) == ["no_password"])
    #expect(!d.canSignIn)
  }

  @Test func oddAddressesAreQuotedInTheFix() {
    var odd = user(confirmed: false)
    odd.email = "o'brien @example.com"
    let d = Diagnosis.evaluate(email: odd.email, user: odd, provider: .supabase, settings: nil, now: now)
    #expect(d.findings[0].fix == "authsh user confirm 'o'\\''brien @example.com'")
  }

  @Test func isoTimesAsBackendsWriteThem() {
    #expect(UnixTime.parseISO("1970-01-01T00:00:00Z") == 0)
    #expect(UnixTime.parseISO("2024-02-29T12:34:56.123456Z") == 1_709_210_096)
    #expect(UnixTime.parseISO("2024-02-29T14:34:56+02:00") == 1_709_210_096)
    #expect(UnixTime.parseISO("2024-02-29") == nil)
    #expect(UnixTime.parseISO("not a time, really!!") == nil)
    // PostgreSQL's text form, a zone without a colon, lower-case separators.
    #expect(UnixTime.parseISO("2024-02-29 12:34:56.5+00:00") == 1_709_210_096)
    #expect(UnixTime.parseISO("2024-02-29t10:34:56-0200") == 1_709_210_096)
    #expect(UnixTime.parseISO("2024-02-29T12:34:56z") == 1_709_210_096)
    // No zone, other separators, a zone past 23 hours, trailing text, year 0: refused.
    for text in [
      "2024-02-29T12:34:56", "2024/02/29T12:34:56Z", "2024-02-29T12:34:56+25:00", "2024-02-29T12:34:56Zjunk",
      "0000-01-01T00:00:00Z", "2024-13-01T00:00:00Z",
    ] {
      #expect(UnixTime.parseISO(text) == nil, "\(text)")
    }
    // Times of day across eight years (leap days included) round-trip through the parser.
    for seconds in stride(from: 0, to: 86_400 * 3_000, by: 3 * 86_400 + 3_599) {
      #expect(UnixTime.parseISO(CivilTime.iso8601(seconds: seconds)) == seconds, "\(seconds)")
    }
  }

  @Test func aRateLimitIsListedWithTheProjectsNumbersAndAnEmulatorsLimiterBlocks() {
    let plain = Diagnosis.evaluate(email: "ada@example.com", user: user(), provider: .supabase, settings: nil, now: now)
    let note = plain.findings.last
    #expect(note?.code == "rate_limit_possible" && note?.blocking == false)
    #expect(note?.message.contains("30 attempts at once or 150 in 5 minutes") == true)
    #expect(note?.message.contains("one more is allowed every 2 s, 30 again after 60 s") == true)
    let free = Diagnosis.evaluate(
      email: "ada@example.com", user: user(), provider: .supabase, settings: nil, now: now,
      limits: SignInLimitState(enforced: true, limited: [:]))
    #expect(free.canSignIn && free.findings.last?.message.contains("no client is limited now") == true)
    let limited = Diagnosis.evaluate(
      email: "ada@example.com", user: user(), provider: .supabase, settings: nil, now: now,
      limits: SignInLimitState(enforced: true, limited: ["local": 2]))
    #expect(!limited.canSignIn)
    #expect(codes(limited) == ["rate_limited"])
    #expect(limited.findings[0].message.contains("rate-limited right now on this emulator for this machine"))
    let firebase = Diagnosis.evaluate(
      email: "ada@example.com", user: user(), provider: .firebase, settings: nil, now: now)
    #expect(firebase.findings.last?.message.contains("TOO_MANY_ATTEMPTS_TRY_LATER") == true)
  }

  @Test("a Firebase project with TOTP off: a note that mfa enroll is refused and how a project owner switches it on")
  func totpOff() {
    let off = Diagnosis.evaluate(
      email: "ada@example.com", user: user(), provider: .firebase, settings: ProjectSettings(totpEnabled: false),
      now: now)
    let note = off.findings.first { $0.code == "totp_off" }
    #expect(note?.blocking == false && off.canSignIn)
    #expect(note?.message.contains("updateMask=mfa") == true)
    for settings in [ProjectSettings(totpEnabled: true), ProjectSettings()] {
      let quiet = Diagnosis.evaluate(
        email: "ada@example.com", user: user(), provider: .firebase, settings: settings, now: now)
      #expect(!codes(quiet).contains("totp_off"))
    }
  }
}
