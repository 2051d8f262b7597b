/// Every flag, declared once: its spec (name, value, kind, summary) and the type it reads as.
/// Command rows list these keys; handlers read them typed (`invocation[.until]`). Flags that
/// share a name on different commands but mean different things (`--jobs` of `run` and of
/// `user show`) are different keys.

// MARK: Output flags: every command that talks to a backend, on every surface

extension FlagKey where Value == Bool {
  package static let json = toggle(FlagSpec("--json", "Print the result model as JSON"))
  package static let verbose = toggle(FlagSpec("--verbose", "Trace requests and responses (secrets redacted)"))
  package static let showTokens = toggle(FlagSpec("--show-tokens", "Print tokens instead of ***"))
}

extension FlagKey where Value == Double {
  package static let timeout = duration(
    FlagSpec("--timeout", value: "DURATION", kind: .duration, bounds: 0.001...86_400, "Request timeout (default 30s)"))
}

extension FlagKey where Value == String {
  package static let color = text(
    FlagSpec(
      "--color", value: "WHEN", kind: .text, choices: ["auto", "always", "never"], "Colour: auto, always or never"))
}

// MARK: Passwords, accounts, sessions

extension FlagKey where Value == String {
  package static let password = text(
    FlagSpec(
      "--password", value: "VALUE", kind: .password, secret: true,
      "The password (kept out of shell history; prefer the prompt or --password-env)"))
  package static let passwordEnv = text(
    FlagSpec("--password-env", value: "VAR", kind: .variable, "Read the password from environment variable VAR"))
  package static let signupName = text(
    FlagSpec(
      "--name", value: "NAME", kind: .name, required: true,
      "The user's name (stored as first_name/full_name or displayName)"))
  package static let resetEmail = text(
    FlagSpec("--email", value: "EMAIL", kind: .email, "The e-mail address (needed with a 6-digit Supabase code)"))
  package static let scope = text(
    FlagSpec(
      "--scope", value: "SCOPE", kind: .scope, choices: ["local", "global", "others"],
      "Which sessions end: local (default: only this one), global (every session of the account) or others (Supabase)"))
  package static let providerURL = text(
    FlagSpec("--url", value: "URL", kind: .url, "The backend URL (Supabase project URL, or a Firebase emulator URL)"))
  package static let providerKey = text(
    FlagSpec("--key", value: "KEY", kind: .key, secret: true, "The anon key or Firebase API key"))
}

extension FlagKey where Value == Bool {
  package static let passwordStdin = toggle(
    FlagSpec(
      "--password-stdin", surfaces: .oneShot,
      "Read the password from the first line of standard input (a pipe, not a terminal)"))
  package static let remember = toggle(
    FlagSpec("--remember", "Remember the e-mail as this profile's default for the next login"))
  package static let noSave = toggle(
    FlagSpec("--no-save", "Keep the session in memory only (one-shot: it is not written to disk)"))
  package static let claims = toggle(FlagSpec("--claims", "Also show the decoded access-token claims"))
}

/// The three ways to give a password, in the order commands list them.
package let passwordFlags: [any DeclaredFlag] = [FlagKey.password, FlagKey.passwordEnv, FlagKey.passwordStdin]

// MARK: Support commands

extension FlagKey where Value == String {
  package static let from = text(
    FlagSpec("--from", value: "FILE", kind: .path, "Read addresses from FILE, one per line (- for standard input)"))
  package static let filter = text(
    FlagSpec("--filter", value: "TEXT", kind: .text, "Only accounts whose e-mail or name contains TEXT"))
  package static let pageToken = text(
    FlagSpec("--page-token", value: "TOKEN", kind: .text, "The page to show, as the previous page printed"))
  package static let accountName = text(FlagSpec("--name", value: "NAME", kind: .name, "The user's name"))
  package static let updateName = text(
    FlagSpec(
      "--name", value: "NAME", kind: .name, "The display name (Supabase user_metadata.full_name, Firebase displayName)")
  )
  package static let meta = text(
    FlagSpec(
      "--meta", value: "KEY=VALUE", kind: .text, repeatable: true,
      "Set a key of Supabase's user_metadata (VALUE is JSON when it reads as JSON; null removes the key)"))
  package static let appMeta = text(
    FlagSpec(
      "--app-meta", value: "KEY=VALUE", kind: .text, repeatable: true, access: .grant,
      "Set a key of the metadata only admins write (Supabase app_metadata, Firebase custom claims): roles"))
  package static let customClaims = text(
    FlagSpec(
      "--claims", value: "JSON", kind: .text, access: .grant,
      "Merge a JSON object into the custom claims (Firebase customAttributes, Supabase app_metadata)"))
  package static let phone = text(
    FlagSpec("--phone", value: "NUMBER", kind: .text, "Set the phone number, in E.164 form (+15551234567)"))
  package static let resetFactor = text(
    FlagSpec(
      "--factor", value: "ID", kind: .text,
      "Only this factor (its id or name, as `user show` lists them); default: every one"))
}

extension FlagKey where Value == Int {
  package static let lookupJobs = number(
    FlagSpec(
      "--jobs", value: "N", kind: .number, bounds: 1...64, "Look up N accounts at a time (default 8, at most 64)"))
  package static let limit = number(
    FlagSpec("--limit", value: "N", kind: .number, bounds: 1...1000, "Accounts per page (default 50)"))
  package static let maxPages = number(
    FlagSpec(
      "--max-pages", value: "N", kind: .number, bounds: 1...1_000_000,
      "Firebase with --filter: read at most N pages of accounts, then stop and say how far it got"))
}

extension FlagKey where Value == Bool {
  package static let jsonl = toggle(FlagSpec("--jsonl", "One JSON result per line, printed as each lookup completes"))
  package static let yes = toggle(FlagSpec("--yes", "Do it without asking (needed without a terminal)"))
  package static let confirmed = toggle(FlagSpec("--confirmed", "Create the account with its e-mail already confirmed"))
  package static let newConfirmed = toggle(
    FlagSpec("--confirmed", "Mark the new address confirmed (no mail is sent either way)"))
  package static let soft = toggle(FlagSpec("--soft", "Supabase: soft delete (the account is kept, its e-mail freed)"))
  package static let allBackends = toggle(
    FlagSpec("--all-backends", "Lines about every backend, and lines that name none, not only the backend in use"))
}

extension FlagKey where Value == Span {
  package static let until = span(
    FlagSpec(
      "--until", value: "DURATION", kind: .span,
      "Re-enable by itself after DURATION (Supabase only), e.g. 24h, 7d or 2w"))
  package static let since = span(
    FlagSpec("--since", value: "DURATION", kind: .span, "Only entries newer than DURATION, e.g. 24h or 7d"))
}

// MARK: Bulk changes (`user confirm --from FILE` …)

extension FlagKey where Value == String {
  package static let bulkFrom = text(
    FlagSpec(
      "--from", value: "FILE", kind: .path,
      "Change every account in FILE instead of one: an address or id per line, a CSV with an email or id column, or a --report file (- for standard input)"
    ))
  package static let bulkReport = text(
    FlagSpec(
      "--report", value: "FILE", kind: .path,
      "With --from: write one JSON line per account (input, email, id, outcome, code, message)"))
  package static let bulkResume = text(
    FlagSpec(
      "--resume", value: "REPORT", kind: .path,
      "Finish an earlier run from its --report file: only the accounts not done yet (not_started, unknown, a failure that may pass); the new lines are appended to REPORT unless --report names another file. Added to the run's own command line, its --from must list the accounts of REPORT"
    ))
}

extension FlagKey where Value == Int {
  package static let bulkJobs = number(
    FlagSpec(
      "--jobs", value: "N", kind: .number, bounds: 1...64,
      "With --from: change N accounts at a time (default 4, at most 64)"))
}

extension FlagKey where Value == Bool {
  package static let dryRun = toggle(
    FlagSpec("--dry-run", "With --from: show what would change for each account; nothing is sent but the lookups"))
  package static let onlyFailed = toggle(
    FlagSpec("--only-failed", "With --from REPORT.jsonl: only the accounts whose outcome was failed"))
}

/// The flags every change command takes for many accounts at once.
package let bulkFlags: [any DeclaredFlag] = [
  FlagKey.bulkFrom, FlagKey.bulkJobs, FlagKey.dryRun, FlagKey.bulkReport, FlagKey.bulkResume, FlagKey.onlyFailed,
]
