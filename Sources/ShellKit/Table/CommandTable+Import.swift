import AuthCore

extension FlagKey where Value == String {
  package static let importHashConfig = text(
    FlagSpec(
      "--hash-config", value: "FILE", kind: .path,
      "Firebase's hash parameters for --format firebase input (JSON: algorithm, signerKey, saltSeparator, rounds, memoryCost)"
    ))
  package static let importReport = text(
    FlagSpec("--report", value: "FILE", kind: .path, "Write one JSON line per account (status, new id, error) to FILE"))
}

extension FlagKey where Value == Int {
  package static let importJobs = number(
    FlagSpec("--jobs", value: "N", kind: .number, bounds: 1...64, "Requests at a time (default 8, at most 64)"))
}

extension FlagKey where Value == Bool {
  package static let importDryRun = toggle(
    FlagSpec("--dry-run", "Say what would be imported, held back and lost; send nothing"))
  package static let withoutPasswords = toggle(
    FlagSpec(
      "--without-passwords",
      "Import accounts whose password cannot go to the target without it (else they are held back)"))
  package static let dropFactors = toggle(
    FlagSpec("--drop-factors", "Import accounts with second factors without them (else they are held back)"))
  package static let confirmUnverified = toggle(
    FlagSpec(
      "--confirm-unverified",
      "Import Firebase accounts with an unconfirmed address as confirmed into Supabase, which refuses them a password sign-in otherwise (else they are held back)"
    ))
}

extension CommandTable {
  static let importCommands: [CommandSpec] = [
    CommandSpec(
      .userImport, group: .support, arguments: [ArgumentKey.importFile],
      flags: [
        FlagKey.importHashConfig, FlagKey.importJobs, FlagKey.importDryRun, FlagKey.importReport, FlagKey.bulkResume,
        FlagKey.withoutPasswords, FlagKey.dropFactors, FlagKey.confirmUnverified, FlagKey.yes,
      ],
      loading: Loading("Importing…"), access: .change,
      summary: "Create accounts from an export, with their password hashes (Supabase ⇄ Firebase)",
      discussion: changeDiscussion
        + " FILE is what user export writes: JSON lines (the default), CSV (--format csv) or Firebase's"
        + " auth:import JSON (--format firebase, whose hash parameters come from --hash-config FILE), or"
        + " what firebase-tools' auth:export writes as CSV, or a \\copy of GoTrue's auth.users as CSV with"
        + " a header; the kind is told from the content, and anything else is refused (exit 65) before"
        + " anything is sent. An account that would arrive weaker than it left (without its password,"
        + " without its second factors, or locked out by an unconfirmed address) is held back and listed"
        + " (exit 1) unless --without-passwords, --drop-factors or --confirm-unverified accepts that loss;"
        + " the dry run shows the same counts and exits as the import would. Supabase: one POST /admin/users per account with its id (when"
        + " it is a UUID; otherwise Supabase gives a new one, listed in the summary and --report), e-mail,"
        + " confirmation, metadata, ban (to the second it ends; one that has ended is no ban) and password hash (bcrypt, argon2 or Firebase's scrypt as"
        + " $fbscrypt$…), --jobs at a time. Firebase: accounts:batchCreate, up to 1,000 accounts a call,"
        + " one hash kind per call (bcrypt, or Firebase's scrypt with its parameters); argon2 hashes cannot"
        + " go to Firebase, so those accounts are held back unless --without-passwords. Accounts whose"
        + " address or id is taken are skipped and listed, never overwritten. On a terminal it asks you to"
        + " type the number of accounts to confirm (without one it needs --yes); each account gets an"
        + " audit line. Hashes are never printed. --resume REPORT sends what the report of an import into the"
        + " same backend does not list as done. The exit status is 0 when every account was imported or"
        + " skipped, 1 when any failed or was held back, 3 when the backend cannot be reached, 130 when"
        + " interrupted.\n\n" + FidelityLedger.helpText(),
      examples: [
        "authsh user import users.jsonl --yes --jobs 16 --report import-report.jsonl",
        "authsh user import users.json --hash-config hash.json --dry-run",
      ])
  ]
}
