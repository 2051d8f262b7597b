// MARK: `user export`

extension FlagKey where Value == String {
  package static let exportFormat = text(
    FlagSpec(
      "--format", value: "FORMAT", kind: .text, choices: ["jsonl", "csv", "firebase"],
      "jsonl (default: one record per line, what `user import` reads), csv, or firebase (what `firebase auth:import` reads)"
    ))
  package static let hashConfig = text(
    FlagSpec(
      "--hash-config", value: "FILE", kind: .path,
      "Firebase: the project's password-hash parameters as JSON ({\"algorithm\":\"SCRYPT\",\"signerKey\",\"saltSeparator\",\"rounds\",\"memoryCost\"}) when the project config cannot be read"
    ))
  package static let exportOutputFile = text(
    FlagSpec(
      "--output", value: "FILE", kind: .path,
      "Write the records to FILE, created with mode 0600 (it holds password hashes); an existing FILE is refused without --force"
    ))
  package static let databaseURL = text(
    FlagSpec(
      "--db", value: "URL", kind: .url, secret: true,
      "Supabase: read the accounts and their password hashes from the project's database (postgres://USER@HOST:5432/postgres), read only; the password from PGPASSWORD or ~/.pgpass (a password in the URL shows in the process list)"
    ))
  package static let databaseURLEnv = text(
    FlagSpec(
      "--db-env", value: "VAR", kind: .variable,
      "As --db, with the URL read from environment variable VAR (a password in it stays out of the process list)"))
}

extension FlagKey where Value == Bool {
  package static let exportForce = toggle(
    FlagSpec("--force", "With --output: replace FILE if it exists (the old file stays until the export is complete)"))
  package static let exportYes = toggle(
    FlagSpec("--yes", "Write to the terminal all the same (the output holds password hashes)"))
}
