extension CommandTable {
  static let toolCommands: [CommandSpec] = [
    CommandSpec(
      .run, group: .tools, surfaces: .oneShot,
      arguments: [ArgumentKey.runFiles],
      flags: [
        FlagKey.runJobs, FlagKey.failFast, FlagKey.variable, FlagKey.reportJUnit, FlagKey.reportTAP, FlagKey.reportJSON,
        FlagKey.runEmulator, FlagKey.runLikeProduction, FlagKey.smtp, FlagKey.runData,
      ],
      takesOutputFlags: false, summary: "Run .auth scripts with assertions (CI smoke tests)",
      examples: [
        "authsh run --emulator examples/*.auth", "authsh run smoke/*.auth --jobs 4 --report-junit out.xml",
        "authsh run --emulator examples/data/per_account.auth --data examples/data/accounts.csv --jobs 4",
      ]),
    CommandSpec(
      .emulator, group: .tools, surfaces: .oneShot,
      flags: [
        FlagKey.emulatorHost, FlagKey.emulatorPort, FlagKey.project, FlagKey.state, FlagKey.confirmEmail,
        FlagKey.emailPrivacy,
        FlagKey.emulatorLikeProduction, FlagKey.jwtSecret, FlagKey.bcryptCost, FlagKey.refreshReuseInterval,
        FlagKey.mailFrequency, FlagKey.idleTimeout, FlagKey.sessionTimebox, FlagKey.sessionInactivityTimeout,
        FlagKey.latency, FlagKey.fault, FlagKey.printEnv, FlagKey.readyJSON, FlagKey.seed, FlagKey.anonymousSignIns,
        FlagKey.smtp, FlagKey.team, FlagKey.captcha, FlagKey.mfaRateLimit,
      ],
      takesOutputFlags: false, summary: "Serve Supabase Auth and Firebase Auth emulators on one loopback port",
      discussion: """
        Supabase Auth is served under /auth/v1, the Firebase Auth emulator API (Identity Toolkit, \
        Secure Token, /emulator/v1/projects/ID/…) beside it; GET /emulator/v1/outbox?email=ADDRESS \
        lists the mails it "sent". /_/ is a web console for a browser (accounts of both backends, \
        the inbox, faults and limits), served only on a loopback --host.

        Faults rehearse error paths. --fault 'METHOD PATH STATUS|PRESET[xN]' (METHOD * matches any; \
        xN: the next N requests, default 1, x0 until cleared). Presets: html502 (a proxy's HTML 502 \
        page), truncated_json (200 with half a body), drop (close without answering; on a reused \
        keep-alive connection authsh, like curl, sends the request once more on a fresh one, so \
        x2 makes a drop reach the caller), rate_limit \
        (429 in the backend's shape), server_error (500 with a JSON body). At run time: \
        GET /emulator/v1/faults lists them, PUT replaces the list, POST appends, DELETE clears; \
        the body is {"faults":[{"method":"POST","path":"/auth/v1/token","status":429,"times":2, \
        "latency_ms":0,"headers":{"Retry-After":"30"},"json":{…},"body":"…","preset":"drop"}]} \
        (every field but path is optional).

        Two modes. The default follows the local stacks (Supabase CLI: no e-mail confirmation; \
        the official Firebase emulator: no enumeration protection), for fast development loops. \
        --like-production behaves like hosted projects, for scripts you will also run against \
        staging or production: Supabase e-mail confirmation; the built-in mail service's 2 mails \
        an hour for the project (429 over_email_send_rate_limit), delivered only to --team \
        addresses (others: 400 email_address_not_authorized), or 30 an hour to anyone with \
        --smtp custom; per-address limits on /token, /verify, /signup, /recover, /resend, /otp \
        and PUT /user (429 over_request_rate_limit); a 10 s refresh-token reuse interval; \
        Firebase enumeration protection, refresh tokens ended by a password change or \
        `user signout` (TOKEN_EXPIRED), reset codes valid for one hour, 100 new accounts an hour \
        per address (TOO_MANY_ATTEMPTS_TRY_LATER), the free plan's daily mail quotas \
        (QUOTA_EXCEEDED), unknown tenants refused (TENANT_NOT_FOUND), production's error \
        envelopes. Mailed links work for 3600 s in both modes. --captcha turns on Supabase's \
        CAPTCHA protection: sign-up, sign-in, /recover, /resend and /otp need \
        gotrue_meta_security.captcha_token unless sent with an admin key. [emulator] smtp, team \
        and captcha in config.toml set the same. Switch at run time with PUT /emulator/v1/config \
        {"like_production": true, "smtp": "custom", "team": [...], "captcha": true}; \
        `authsh --emulator --like-production` and `authsh run --emulator --like-production` do \
        the same for the in-process emulator, and `like_production = true` under [emulator] in \
        config.toml makes it the default for both. In both modes redirect_to must be the site URL, a \
        loopback address or http://localhost (anything else falls back to the site URL). \
        GET /emulator/openapi.json describes these routes.

        Accounts as they really are. Supabase: TOTP factors (/auth/v1/factors, \
        /admin/users/ID/factors), the audit trail (/admin/audit), /invite, /otp, anonymous \
        sign-in with --anonymous-sign-ins. Firebase: TOTP second factors \
        (v2/accounts/mfaEnrollment:*, mfaSignIn:finalize), e-mail-link sign-in, and \
        accounts:signInWithIdp with an unsigned id_token (postBody \
        id_token=…&providerId=google.com), as the official emulator takes it. Phone sign-in on \
        both (Supabase /otp {phone} and /verify type sms; Firebase accounts:sendVerificationCode \
        and signInWithPhoneNumber): the 6-digit code goes to the outbox as a text (kind sms, to \
        the number in E.164) and, on Firebase, to /emulator/v1/projects/ID/verificationCodes. A Supabase account \
        of Google, GitHub, …: POST /emulator/v1/supabase/idp {"provider":"google", \
        "email":"…"} answers its session (emulator only; the browser round trip in one call).

        --seed FILE creates accounts at start, one JSON object a line (# starts a comment): \
        "backend" (supabase, firebase or both), "email", "password" (a string, or null for none), \
        "name", "providers" (["email"], ["google"], ["password","google.com"], …; each backend's \
        own names, or google/google.com either way), "factors" ([{"name":"phone", \
        "secret":"BASE32","verified":true}]: TOTP), "confirmed" (default true), "disabled", and \
        the kinds: "invited", "sso", "anonymous", "deleted": "soft" (Supabase), "email_link_only" \
        (Firebase), plus "id". A line that does not fit stops the start with FILE:LINE and exit \
        78, before anything is created; accounts already there (same e-mail or id, with --state) \
        are kept as they are. The in-process emulator takes one too: authsh --emulator --seed \
        FILE, authsh run --emulator --seed FILE ….
        """,
      examples: [
        "authsh emulator", "authsh emulator --port 9099 --state ./emulator.sqlite",
        "authsh emulator --fault 'POST /auth/v1/token rate_limitx3'",
        "authsh emulator --like-production",
        "authsh emulator --like-production --team ada@example.com",
        "curl -X PUT localhost:54321/emulator/v1/faults -d '{\"faults\":[{\"path\":\"/auth/v1/user\",\"preset\":\"html502\"}]}'",
        "authsh emulator --port 0 --print-env > emulator.env &",
        "authsh emulator --seed examples/accounts.jsonl",
      ]),
    CommandSpec(
      .emulatorFaultsClear, group: .tools, surfaces: .oneShot,
      flags: [FlagKey.faultsHost, FlagKey.faultsPort, FlagKey.faultsURL],
      takesOutputFlags: false, summary: "Clear the faults of a running emulator (DELETE /emulator/v1/faults)",
      examples: [
        "authsh emulator faults clear --port 54321", "authsh emulator faults clear --url \"$AUTHSH_EMULATOR_URL\"",
      ]),
    CommandSpec(
      .version, group: .tools, takesOutputFlags: false, summary: "Show authsh's version (also --version, -V)",
      examples: ["authsh version"]),
    CommandSpec(
      .completion, group: .tools, surfaces: .oneShot,
      arguments: [ArgumentKey.completionShell],
      takesOutputFlags: false, summary: "Print a shell completion script",
      examples: [
        "eval \"$(authsh completion bash)\"", "authsh completion fish > ~/.config/fish/completions/authsh.fish",
      ]),
  ]

  /// Admin keys in the platform keyring, for `service_key_keyring` / `credentials_keyring`.
  static let secretCommands: [CommandSpec] = [
    CommandSpec(
      .secretSet, group: .tools, surfaces: [.oneShot, .repl], arguments: [ArgumentKey.secretName],
      summary: "Store an admin key or service-account JSON in the keyring (asked, or from stdin)",
      discussion: """
        The value is never printed, logged or kept in the history. A profile uses it with \
        service_key_keyring = "NAME" (a Supabase service_role or secret key) or credentials_keyring \
        = "NAME" (a Firebase service-account JSON). Setting a name again replaces its value. The \
        keyring is the Secret Service (GNOME Keyring, KWallet, KeePassXC) on Linux and the login \
        Keychain on macOS; items carry service=authsh (secret-tool search service authsh).
        """,
      examples: ["authsh secret set staging-admin", "authsh secret set firebase-admin < service-account.json"]),
    CommandSpec(
      .secretList, group: .tools, surfaces: [.oneShot, .repl],
      summary: "List the names of the secrets stored with `secret set` (never their values)",
      examples: ["authsh secret list", "authsh secret list --json"]),
    CommandSpec(
      .secretDelete, group: .tools, surfaces: [.oneShot, .repl], arguments: [ArgumentKey.secretName],
      summary: "Delete a secret stored with `secret set`", examples: ["authsh secret delete staging-admin"]),
    CommandSpec(
      .secretMigrate, group: .tools, surfaces: [.oneShot, .repl], flags: [FlagKey.migrateTo],
      summary: "Move the saved sessions into the keyring or into their 0600 files (--to keyring|file)",
      discussion: """
        The one way a saved session changes store: a session saved with credential_store = "file" \
        stays in its file whatever later commands use, until secret migrate --to keyring moves its \
        tokens into the keyring; --to file moves tokens out of the keyring into 0600 files and keeps \
        them there. Each session moved is named; the keyring must be reachable.
        """,
      examples: ["authsh secret migrate --to keyring", "authsh secret migrate --to file"]),
  ]

  /// Flags accepted before or after any one-shot command.
  package static let connectionFlags: [FlagSpec] =
    ([
      FlagKey.profile, FlagKey.tenant, FlagKey.backend, FlagKey.url, FlagKey.key, FlagKey.allowInsecureHTTP,
      FlagKey.emulator,
      FlagKey.likeProduction, FlagKey.emulatorSeed, FlagKey.noRC, FlagKey.credentialStore,
    ] as [any DeclaredFlag]).map(\.spec)

  /// Flags any command that talks to a backend accepts, on every surface.
  package static let outputFlags: [FlagSpec] =
    ([
      FlagKey.json, FlagKey.verbose, FlagKey.showTokens, FlagKey.timeout, FlagKey.color,
    ] as [any DeclaredFlag]).map(\.spec)

  package static let globalFlags: [FlagSpec] =
    connectionFlags + outputFlags + [FlagKey.help.spec, FlagKey.version.spec]

  /// Flag names whose value is a secret, on any command or globally: history keeps their lines in
  /// memory only, the script checker refuses them written out, a script's redactor learns them.
  package static let secretFlagNames: Set<String> = Set(
    (all.flatMap(\.flags) + globalFlags).filter(\.isSecret).map(\.name))
}
