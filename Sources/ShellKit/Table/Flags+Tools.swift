import AuthCore

/// Flags of the executable's own commands (`run`, `emulator faults clear`) and the connection flags
/// every one-shot command takes; `emulator`'s are in Flags+Emulator.swift.

// MARK: run

extension FlagKey where Value == Int {
  package static let runJobs = number(
    FlagSpec("--jobs", value: "N", kind: .number, bounds: 1...64, "Run up to N files in parallel (default 1)"))
}

extension FlagKey where Value == Bool {
  package static let failFast = toggle(FlagSpec("--fail-fast", "Stop the whole run at the first failure"))
  package static let runEmulator = toggle(
    FlagSpec("--emulator", "Start the embedded emulator and point both providers at it"))
  package static let runLikeProduction = toggle(
    FlagSpec("--like-production", "With --emulator: behave like the hosted products (see `help emulator`)"))
}

extension FlagKey where Value == String {
  package static let variable = text(
    FlagSpec("--var", value: "NAME=VALUE", kind: .text, repeatable: true, "Set a script variable"))
  package static let reportJUnit = text(
    FlagSpec("--report-junit", value: "FILE", kind: .path, "Write a JUnit XML report"))
  package static let reportTAP = text(FlagSpec("--report-tap", value: "FILE", kind: .path, "Write a TAP 13 report"))
  package static let reportJSON = text(FlagSpec("--report-json", value: "FILE", kind: .path, "Write a JSON report"))
  package static let runData = text(
    FlagSpec(
      "--data", value: "FILE", kind: .path,
      "Run each file once per row of FILE (.csv with a header, or .jsonl), the columns as variables"))
}

// MARK: Connection flags: before or after any one-shot command

extension FlagKey where Value == String {
  package static let profile = text(
    FlagSpec("--profile", value: "NAME", kind: .profile, "Use this profile of config.toml"))
  package static let tenant = text(
    FlagSpec(
      "--tenant", value: "ID", kind: .text, "Firebase: the Identity Platform tenant whose users every call reaches"))
  package static let backend = text(
    FlagSpec(
      "--provider", value: "PROVIDER", kind: .provider, choices: ["supabase", "firebase"], "supabase or firebase"))
  package static let url = text(
    FlagSpec("--url", value: "URL", kind: .url, "Backend URL (Supabase project URL or emulator URL)"))
  package static let key = text(
    FlagSpec("--key", value: "KEY", kind: .key, secret: true, "Anon key (Supabase) or API key (Firebase)"))
  package static let credentialStore = text(
    FlagSpec(
      "--credential-store", value: "STORE", kind: .text, choices: CredentialStoreMode.allCases.map(\.rawValue),
      "Where sessions are kept: auto (the keyring, else a 0600 file), keyring, file"))
  package static let migrateTo = text(
    FlagSpec(
      "--to", value: "STORE", kind: .text, choices: ["keyring", "file"], "Where the saved sessions go: keyring or file")
  )
  package static let emulatorSeed = text(
    FlagSpec(
      "--seed", value: "FILE", kind: .path, "With --emulator: first create the accounts of FILE (see `help emulator`)"))
}

extension FlagKey where Value == Bool {
  package static let allowInsecureHTTP = toggle(
    FlagSpec("--allow-insecure-http", "Allow plain http:// to a non-loopback host"))
  package static let emulator = toggle(
    FlagSpec("--emulator", "Use an in-process emulator (the shell, or one-shot commands)"))
  package static let likeProduction = toggle(
    FlagSpec("--like-production", "With --emulator: the emulator behaves like the hosted products"))
  package static let noRC = toggle(FlagSpec("--no-rc", "Do not run the startup file"))
  package static let help = toggle(FlagSpec("--help", "Show help"))
  package static let version = toggle(FlagSpec("--version", "Show the version"))
}
