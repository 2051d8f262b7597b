import AuthCore

/// Flags of the executable's own commands (`run`, `emulator`, `completion`) and the connection
/// flags every one-shot command takes.

// MARK: run

extension FlagKey where Value == Int {
  public static let runJobs = number(
    FlagSpec("--jobs", value: "N", kind: .number, bounds: 1...64, "Run up to N files in parallel (default 1)"))
}

extension FlagKey where Value == Bool {
  public static let failFast = toggle(FlagSpec("--fail-fast", "Stop the whole run at the first failure"))
  public static let runEmulator = toggle(FlagSpec("--emulator", "Start the embedded emulator and point both providers at it"))
  public static let runLikeProduction = toggle(
    FlagSpec("--like-production", "With --emulator: behave like the hosted products (see `help emulator`)"))
}

extension FlagKey where Value == String {
  public static let variable = text(FlagSpec("--var", value: "NAME=VALUE", kind: .text, repeatable: true, "Set a script variable"))
  public static let reportJUnit = text(FlagSpec("--report-junit", value: "FILE", kind: .path, "Write a JUnit XML report"))
  public static let reportTAP = text(FlagSpec("--report-tap", value: "FILE", kind: .path, "Write a TAP 13 report"))
  public static let reportJSON = text(FlagSpec("--report-json", value: "FILE", kind: .path, "Write a JSON report"))
  public static let runData = text(
    FlagSpec("--data", value: "FILE", kind: .path, "Run each file once per row of FILE (.csv with a header, or .jsonl), the columns as variables"))
}

// MARK: emulator (its values are mapped to a configuration by `EmulatorOptions`)

extension FlagKey where Value == String {
  public static let emulatorHost = text(FlagSpec("--host", value: "HOST", kind: .host, "Address to bind (default 127.0.0.1)"))
  public static let project = text(FlagSpec("--project", value: "ID", kind: .text, "Firebase project id (default demo-authsh)"))
  public static let state = text(FlagSpec("--state", value: "FILE", kind: .path, "Keep users, sessions and codes in this SQLite file"))
  public static let seed = text(
    FlagSpec("--seed", value: "FILE", kind: .path, "Create the accounts of FILE (JSON lines) at start; existing ones are kept"))
  public static let jwtSecret = text(
    FlagSpec("--jwt-secret", value: "SECRET", kind: .key, secret: true, "HS256 secret for Supabase tokens"))
  public static let fault = text(
    FlagSpec("--fault", value: "SPEC", kind: .text, repeatable: true, "Inject a fault: 'METHOD PATH STATUS|PRESET[xN]'"))
  public static let faultsHost = text(FlagSpec("--host", value: "HOST", kind: .host, "The emulator's address (default 127.0.0.1)"))
  public static let faultsURL = text(FlagSpec("--url", value: "URL", kind: .url, "The emulator's URL, instead of --host and --port"))
  public static let smtp = text(
    FlagSpec(
      "--smtp", value: "SERVICE", kind: .text, choices: ["built-in", "custom"],
      "Supabase, like production: the built-in mail service (2 an hour, team only; default) or custom SMTP (30 an hour)"))
  public static let team = text(
    FlagSpec("--team", value: "EMAIL", kind: .email, repeatable: true, "Supabase, like production: a team address the built-in mail service delivers to"))
}

extension FlagKey where Value == Bool {
  public static let confirmEmail = toggle(FlagSpec("--confirm-email", "Supabase: require e-mail confirmation before sign-in"))
  public static let emailPrivacy = toggle(FlagSpec("--email-privacy", "Firebase: turn on e-mail enumeration protection"))
  public static let emulatorLikeProduction = toggle(
    FlagSpec("--like-production", "Behave like the hosted products: confirmation, quotas, rate limits, enumeration protection"))
  public static let printEnv = toggle(
    FlagSpec("--print-env", "Once listening, print NAME=VALUE lines (port, URLs, keys) instead of the banner"))
  public static let readyJSON = toggle(FlagSpec("--json", "Once listening, print one JSON line {\"schema\":1,\"event\":\"ready\",…}"))
  public static let anonymousSignIns = toggle(
    FlagSpec("--anonymous-sign-ins", "Supabase: sign-up with neither e-mail nor phone makes an anonymous user"))
  public static let captcha = toggle(
    FlagSpec("--captcha", "Supabase: CAPTCHA protection on; calls without gotrue_meta_security.captcha_token are refused"))
}

extension FlagKey where Value == Int {
  public static let emulatorPort = number(
    FlagSpec("--port", value: "PORT", kind: .number, bounds: 0...65_535, "Port to listen on (default 54321; 0 picks a free one)"))
  public static let bcryptCost = number(
    FlagSpec("--bcrypt-cost", value: "N", kind: .number, bounds: 4...31, "bcrypt cost for stored passwords (default 4)"))
  public static let refreshReuseInterval = number(
    FlagSpec("--refresh-reuse-interval", value: "SECONDS", kind: .number, bounds: 0...86_400, "Supabase refresh-token reuse interval (default 0)"))
  public static let mailFrequency = number(
    FlagSpec("--mail-frequency", value: "SECONDS", kind: .number, bounds: 0...86_400, "Seconds between two mails of one kind to one user (default 60)"))
  public static let idleTimeout = number(
    FlagSpec("--idle-timeout", value: "SECONDS", kind: .number, bounds: 1...86_400, "Close connections idle this long without a complete request (default 30)"))
  public static let sessionTimebox = number(
    FlagSpec("--session-timebox", value: "SECONDS", kind: .number, bounds: 0...31_536_000, "Supabase sessions end this long after sign-in (default 0 = never)"))
  public static let sessionInactivityTimeout = number(
    FlagSpec(
      "--session-inactivity-timeout", value: "SECONDS", kind: .number, bounds: 0...31_536_000,
      "Supabase sessions end when not refreshed this long (default 0 = never)"))
  public static let latency = number(FlagSpec("--latency-ms", value: "MS", kind: .number, bounds: 0...600_000, "Delay every answer"))
  public static let faultsPort = number(FlagSpec("--port", value: "PORT", kind: .number, bounds: 1...65_535, "The emulator's port (default 54321)"))
}

// MARK: Connection flags: before or after any one-shot command

extension FlagKey where Value == String {
  public static let profile = text(FlagSpec("--profile", value: "NAME", kind: .profile, "Use this profile of config.toml"))
  public static let tenant = text(
    FlagSpec("--tenant", value: "ID", kind: .text, "Firebase: the Identity Platform tenant whose users every call reaches"))
  public static let backend = text(
    FlagSpec("--provider", value: "PROVIDER", kind: .provider, choices: ["supabase", "firebase"], "supabase or firebase"))
  public static let url = text(FlagSpec("--url", value: "URL", kind: .url, "Backend URL (Supabase project URL or emulator URL)"))
  public static let key = text(FlagSpec("--key", value: "KEY", kind: .key, secret: true, "Anon key (Supabase) or API key (Firebase)"))
  public static let credentialStore = text(
    FlagSpec(
      "--credential-store", value: "STORE", kind: .text, choices: CredentialStoreMode.allCases.map(\.rawValue),
      "Where sessions are kept: auto (the keyring, else a 0600 file), keyring, file"))
  public static let migrateTo = text(
    FlagSpec("--to", value: "STORE", kind: .text, choices: ["keyring", "file"], "Where the saved sessions go: keyring or file"))
  public static let emulatorSeed = text(
    FlagSpec("--seed", value: "FILE", kind: .path, "With --emulator: first create the accounts of FILE (see `help emulator`)"))
}

extension FlagKey where Value == Bool {
  public static let allowInsecureHTTP = toggle(FlagSpec("--allow-insecure-http", "Allow plain http:// to a non-loopback host"))
  public static let emulator = toggle(FlagSpec("--emulator", "Use an in-process emulator (the shell, or one-shot commands)"))
  public static let likeProduction = toggle(
    FlagSpec("--like-production", "With --emulator: the emulator behaves like the hosted products"))
  public static let noRC = toggle(FlagSpec("--no-rc", "Do not run the startup file"))
  public static let help = toggle(FlagSpec("--help", "Show help"))
  public static let version = toggle(FlagSpec("--version", "Show the version"))
}
