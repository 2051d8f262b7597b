extension CommandTable {
  /// `user export`: every account, streamed to standard output.
  static let transferCommands: [CommandSpec] = [
    CommandSpec(
      .userExport, group: .support, surfaces: .oneShot,
      flags: [
        FlagKey.exportFormat, FlagKey.filter, FlagKey.exportOutputFile, FlagKey.exportForce, FlagKey.hashConfig,
        FlagKey.databaseURL,
        FlagKey.databaseURLEnv, FlagKey.exportYes,
      ],
      loading: Loading("Exporting…"), access: .read,
      summary:
        "Write every account to standard output or --output FILE, with password hashes where the backend gives them",
      discussion: supportDiscussion
        + " Reads the accounts a page at a time and writes each as it comes (memory stays small whatever"
        + " the number): --format jsonl (default) writes one JSON record per line — id, email,"
        + " email_verified, phone, display_name, disabled, banned_until, created_at, last_sign_in_at,"
        + " user_metadata, app_metadata (Firebase custom claims as app_metadata.claims), providers,"
        + " identities, factors (never their secrets), source, password_hash, password_note — which"
        + " `user import` reads; csv the same fields as columns; firebase the JSON file `firebase"
        + " auth:import` reads. Firebase: accounts:batchGet returns each password's hash and salt, and"
        + " the project's hash parameters (signer key, salt separator, rounds, memory cost) come from the"
        + " project config or --hash-config FILE; a record gets password_hash as Firebase's modified scrypt"
        + " in GoTrue's $fbscrypt$ form. Supabase: the admin API returns no hashes (password_hash null,"
        + " password_note says why); --db URL reads them from the project's database instead (auth.users,"
        + " in a read-only transaction; --db-env VAR reads the URL from a variable; a password the URL leaves out comes"
        + " from PGPASSWORD, ~/.pgpass or a pg_service.conf service, as with psql). The output holds password hashes (and Firebase's signer key):"
        + " keep it private. --output FILE writes it to a new file of mode 0600 (an existing FILE, or a"
        + " symbolic link, is refused without --force, which replaces it once the export is complete). It"
        + " is never written to a terminal without --yes. A progress line and the count go to standard"
        + " error.",
      examples: [
        "authsh user export --output users.jsonl",
        "authsh user export --provider supabase --db-env SUPABASE_DB_URL --output users.jsonl",
        "PGPASSWORD=… authsh user export --provider supabase --db postgres://postgres@db.abcd.supabase.co:5432/postgres --output users.jsonl",
        "authsh user export --provider firebase --format firebase > firebase-users.json",
        "authsh user export --filter @example.com --format csv > users.csv",
      ])
  ]
}
