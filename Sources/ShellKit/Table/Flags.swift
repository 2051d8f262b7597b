/// Every flag, declared once: its spec (name, value, kind, summary) and the type it reads as.
/// Command rows list these keys; handlers read them typed (`invocation[.until]`). Flags that
/// share a name on different commands but mean different things (`--jobs` of `run` and of
/// `user show`) are different keys.

// MARK: Output flags: every command that talks to a backend, on every surface

extension FlagKey where Value == Bool {
  public static let json = toggle(FlagSpec("--json", "Print the result model as JSON"))
  public static let verbose = toggle(FlagSpec("--verbose", "Trace requests and responses (secrets redacted)"))
  public static let showTokens = toggle(FlagSpec("--show-tokens", "Print tokens instead of ***"))
}

extension FlagKey where Value == Double {
  public static let timeout = duration(
    FlagSpec("--timeout", value: "DURATION", kind: .duration, bounds: 0.001...86_400, "Request timeout (default 30s)"))
}

extension FlagKey where Value == String {
  public static let color = text(
    FlagSpec(
      "--color", value: "WHEN", kind: .text, choices: ["auto", "always", "never"], "Colour: auto, always or never"))
}

// MARK: Passwords, accounts, sessions

extension FlagKey where Value == String {
  public static let password = text(
    FlagSpec(
      "--password", value: "VALUE", kind: .password, secret: true,
      "The password (kept out of shell history; prefer the prompt or --password-env)"))
  public static let passwordEnv = text(
    FlagSpec("--password-env", value: "VAR", kind: .variable, "Read the password from environment variable VAR"))
  public static let signupName = text(
    FlagSpec(
      "--name", value: "NAME", kind: .name, required: true,
      "The user's name (stored as first_name/full_name or displayName)"))
  public static let resetEmail = text(
    FlagSpec("--email", value: "EMAIL", kind: .email, "The e-mail address (needed with a 6-digit Supabase code)"))
  public static let scope = text(
    FlagSpec(
      "--scope", value: "SCOPE", kind: .scope, choices: ["local", "global", "others"],
      "Which sessions end: local (default: only this one), global (every session of the account) or others (Supabase)"))
  public static let providerURL = text(
    FlagSpec("--url", value: "URL", kind: .url, "The backend URL (Supabase project URL, or a Firebase emulator URL)"))
  public static let providerKey = text(
    FlagSpec("--key", value: "KEY", kind: .key, secret: true, "The anon key or Firebase API key"))
}

extension FlagKey where Value == Bool {
  public static let passwordStdin = toggle(
    FlagSpec(
      "--password-stdin", surfaces: .oneShot,
      "Read the password from the first line of standard input (a pipe, not a terminal)"))
  public static let remember = toggle(
    FlagSpec("--remember", "Remember the e-mail as this profile's default for the next login"))
  public static let noSave = toggle(
    FlagSpec("--no-save", "Keep the session in memory only (one-shot: it is not written to disk)"))
  public static let claims = toggle(FlagSpec("--claims", "Also show the decoded access-token claims"))
}

/// The three ways to give a password, in the order commands list them.
public let passwordFlags: [any DeclaredFlag] = [FlagKey.password, FlagKey.passwordEnv, FlagKey.passwordStdin]

// MARK: Support commands

extension FlagKey where Value == String {
  public static let from = text(
    FlagSpec("--from", value: "FILE", kind: .path, "Read addresses from FILE, one per line (- for standard input)"))
  public static let filter = text(
    FlagSpec("--filter", value: "TEXT", kind: .text, "Only accounts whose e-mail or name contains TEXT"))
  public static let pageToken = text(
    FlagSpec("--page-token", value: "TOKEN", kind: .text, "The page to show, as the previous page printed"))
  public static let accountName = text(FlagSpec("--name", value: "NAME", kind: .name, "The user's name"))
  public static let updateName = text(
    FlagSpec(
      "--name", value: "NAME", kind: .name, "The display name (Supabase user_metadata.full_name, Firebase displayName)")
  )
  public static let meta = text(
    FlagSpec(
      "--meta", value: "KEY=VALUE", kind: .text, repeatable: true,
      "Set a key of Supabase's user_metadata (VALUE is JSON when it reads as JSON; null removes the key)"))
  public static let appMeta = text(
    FlagSpec(
      "--app-meta", value: "KEY=VALUE", kind: .text, repeatable: true, access: .grant,
      "Set a key of the metadata only admins write (Supabase app_metadata, Firebase custom claims): roles"))
  public static let customClaims = text(
    FlagSpec(
      "--claims", value: "JSON", kind: .text, access: .grant,
      "Merge a JSON object into the custom claims (Firebase customAttributes, Supabase app_metadata)"))
  public static let phone = text(
    FlagSpec("--phone", value: "NUMBER", kind: .text, "Set the phone number, in E.164 form (+15551234567)"))
  public static let resetFactor = text(
    FlagSpec(
      "--factor", value: "ID", kind: .text,
      "Only this factor (its id or name, as `user show` lists them); default: every one"))
}

extension FlagKey where Value == Int {
  public static let lookupJobs = number(
    FlagSpec(
      "--jobs", value: "N", kind: .number, bounds: 1...64, "Look up N accounts at a time (default 8, at most 64)"))
  public static let limit = number(
    FlagSpec("--limit", value: "N", kind: .number, bounds: 1...1000, "Accounts per page (default 50)"))
  public static let maxPages = number(
    FlagSpec(
      "--max-pages", value: "N", kind: .number, bounds: 1...1_000_000,
      "Firebase with --filter: read at most N pages of accounts, then stop and say how far it got"))
}

extension FlagKey where Value == Bool {
  public static let jsonl = toggle(FlagSpec("--jsonl", "One JSON result per line, printed as each lookup completes"))
  public static let yes = toggle(FlagSpec("--yes", "Do it without asking (needed without a terminal)"))
  public static let confirmed = toggle(FlagSpec("--confirmed", "Create the account with its e-mail already confirmed"))
  public static let newConfirmed = toggle(
    FlagSpec("--confirmed", "Mark the new address confirmed (no mail is sent either way)"))
  public static let soft = toggle(FlagSpec("--soft", "Supabase: soft delete (the account is kept, its e-mail freed)"))
  public static let allBackends = toggle(
    FlagSpec("--all-backends", "Lines about every backend, and lines that name none, not only the backend in use"))
}

extension FlagKey where Value == Span {
  public static let until = span(
    FlagSpec(
      "--until", value: "DURATION", kind: .span,
      "Re-enable by itself after DURATION (Supabase only), e.g. 24h, 7d or 2w"))
  public static let since = span(
    FlagSpec("--since", value: "DURATION", kind: .span, "Only entries newer than DURATION, e.g. 24h or 7d"))
}

// MARK: Bulk changes (`user confirm --from FILE` …)

extension FlagKey where Value == String {
  public static let bulkFrom = text(
    FlagSpec(
      "--from", value: "FILE", kind: .path,
      "Change every account in FILE instead of one: an address or id per line, a CSV with an email or id column, or a --report file (- for standard input)"
    ))
  public static let bulkReport = text(
    FlagSpec(
      "--report", value: "FILE", kind: .path,
      "With --from: write one JSON line per account (input, email, id, outcome, code, message)"))
  public static let bulkResume = text(
    FlagSpec(
      "--resume", value: "REPORT", kind: .path,
      "Finish an earlier run from its --report file: only the accounts not done yet (not_started, unknown, a failure that may pass); the new lines are appended to REPORT unless --report names another file. Added to the run's own command line, its --from must list the accounts of REPORT"
    ))
}

extension FlagKey where Value == Int {
  public static let bulkJobs = number(
    FlagSpec(
      "--jobs", value: "N", kind: .number, bounds: 1...64,
      "With --from: change N accounts at a time (default 4, at most 64)"))
}

extension FlagKey where Value == Bool {
  public static let dryRun = toggle(
    FlagSpec("--dry-run", "With --from: show what would change for each account; nothing is sent but the lookups"))
  public static let onlyFailed = toggle(
    FlagSpec("--only-failed", "With --from REPORT.jsonl: only the accounts whose outcome was failed"))
}

/// The flags every change command takes for many accounts at once.
public let bulkFlags: [any DeclaredFlag] = [
  FlagKey.bulkFrom, FlagKey.bulkJobs, FlagKey.dryRun, FlagKey.bulkReport, FlagKey.bulkResume, FlagKey.onlyFailed,
]
