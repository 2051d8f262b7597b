extension CommandTable {
  static let toolCommands: [CommandSpec] = [
    CommandSpec(
      ["run"], group: .tools, surfaces: .oneShot,
      arguments: [ArgumentSpec("FILE", .authFile, variadic: true, ".auth scripts to run")],
      flags: [
        FlagSpec("--jobs", value: "N", kind: .number, "Run up to N files in parallel (default 1)"),
        FlagSpec("--fail-fast", "Stop the whole run at the first failure"),
        FlagSpec("--var", value: "NAME=VALUE", kind: .text, repeatable: true, "Set a script variable"),
        FlagSpec("--report-junit", value: "FILE", kind: .path, "Write a JUnit XML report"),
        FlagSpec("--report-tap", value: "FILE", kind: .path, "Write a TAP 13 report"),
        FlagSpec("--report-json", value: "FILE", kind: .path, "Write a JSON report"),
        FlagSpec("--emulator", "Start the embedded emulator and point both providers at it"),
        FlagSpec("--like-production", "With --emulator: behave like the hosted products (see `help emulator`)"),
      ],
      takesOutputFlags: false, summary: "Run .auth scripts with assertions (CI smoke tests)",
      examples: ["authsh run --emulator examples/*.auth", "authsh run smoke/*.auth --jobs 4 --report-junit out.xml"]),
    CommandSpec(
      ["emulator"], group: .tools, surfaces: .oneShot,
      flags: [
        FlagSpec("--host", value: "HOST", kind: .host, "Address to bind (default 127.0.0.1)"),
        FlagSpec("--port", value: "PORT", kind: .number, "Port to listen on (default 54321; 0 picks a free one)"),
        FlagSpec("--project", value: "ID", kind: .text, "Firebase project id (default demo-authsh)"),
        FlagSpec("--state", value: "FILE", kind: .path, "Keep users, sessions and codes in this SQLite file"),
        FlagSpec("--confirm-email", "Supabase: require e-mail confirmation before sign-in"),
        FlagSpec("--email-privacy", "Firebase: turn on e-mail enumeration protection"),
        FlagSpec("--like-production", "Behave like the hosted products: confirmation, quotas, rate limits, enumeration protection"),
        FlagSpec("--jwt-secret", value: "SECRET", kind: .key, secret: true, "HS256 secret for Supabase tokens"),
        FlagSpec("--bcrypt-cost", value: "N", kind: .number, "bcrypt cost for stored passwords (default 4)"),
        FlagSpec("--refresh-reuse-interval", value: "SECONDS", kind: .number, "Supabase refresh-token reuse interval (default 0)"),
        FlagSpec("--mail-frequency", value: "SECONDS", kind: .number, "Seconds between two mails of one kind to one user (default 60)"),
        FlagSpec("--idle-timeout", value: "SECONDS", kind: .number, "Close connections idle this long without a complete request (default 30)"),
        FlagSpec("--session-timebox", value: "SECONDS", kind: .number, "Supabase sessions end this long after sign-in (default 0 = never)"),
        FlagSpec("--session-inactivity-timeout", value: "SECONDS", kind: .number, "Supabase sessions end when not refreshed this long (default 0 = never)"),
        FlagSpec("--latency-ms", value: "MS", kind: .number, "Delay every answer"),
        FlagSpec("--fault", value: "SPEC", kind: .text, repeatable: true, "Inject a fault: 'METHOD PATH STATUS|PRESET[xN]'"),
        FlagSpec("--print-env", "Once listening, print NAME=VALUE lines (port, URLs, keys) instead of the banner"),
        FlagSpec("--json", "Once listening, print one JSON line {\"schema\":1,\"event\":\"ready\",…}"),
      ],
      takesOutputFlags: false, summary: "Serve Supabase Auth and Firebase Auth emulators on one loopback port",
      discussion: """
        Supabase Auth is served under /auth/v1, the Firebase Auth emulator API (Identity Toolkit, \
        Secure Token, /emulator/v1/projects/ID/…) beside it; GET /emulator/v1/outbox?email=ADDRESS \
        lists the mails it "sent".

        Faults rehearse error paths. --fault 'METHOD PATH STATUS|PRESET[xN]' (METHOD * matches any; \
        xN: the next N requests, default 1, x0 until cleared). Presets: html502 (a proxy's HTML 502 \
        page), truncated_json (200 with half a body), drop (close without answering), rate_limit \
        (429 in the backend's shape), server_error (500 with a JSON body). At run time: \
        GET /emulator/v1/faults lists them, PUT replaces the list, POST appends, DELETE clears; \
        the body is {"faults":[{"method":"POST","path":"/auth/v1/token","status":429,"times":2, \
        "latency_ms":0,"headers":{"Retry-After":"30"},"json":{…},"body":"…","preset":"drop"}]} \
        (every field but path is optional).

        Two modes. The default follows the local stacks (Supabase CLI: no e-mail confirmation; \
        the official Firebase emulator: no enumeration protection), for fast development loops. \
        --like-production behaves like hosted projects, for scripts you will also run against \
        staging or production: Supabase e-mail confirmation, 30 mails an hour for the project \
        (429 over_email_send_rate_limit), per-address limits on /token and /verify (429 \
        over_request_rate_limit); Firebase enumeration protection, refresh tokens ended by a \
        password change (TOKEN_EXPIRED), reset codes valid for one hour, production's error \
        envelopes. Switch at run time with PUT /emulator/v1/config {"like_production": true}; \
        `authsh --emulator --like-production` and `authsh run --emulator --like-production` do \
        the same for the in-process emulator, and `like_production = true` under [emulator] in \
        config.toml makes it the default for both. In both modes redirect_to must be the site URL, a \
        loopback address or http://localhost (anything else falls back to the site URL). \
        GET /emulator/openapi.json describes these routes.
        """,
      examples: [
        "authsh emulator", "authsh emulator --port 9099 --state ./emulator.sqlite",
        "authsh emulator --fault 'POST /auth/v1/token rate_limitx3'",
        "authsh emulator --like-production",
        "curl -X PUT localhost:54321/emulator/v1/faults -d '{\"faults\":[{\"path\":\"/auth/v1/user\",\"preset\":\"html502\"}]}'",
        "authsh emulator --port 0 --print-env > emulator.env &",
      ]),
    CommandSpec(
      ["emulator", "faults", "clear"], group: .tools, surfaces: .oneShot,
      flags: [
        FlagSpec("--host", value: "HOST", kind: .host, "The emulator's address (default 127.0.0.1)"),
        FlagSpec("--port", value: "PORT", kind: .number, "The emulator's port (default 54321)"),
        FlagSpec("--url", value: "URL", kind: .url, "The emulator's URL, instead of --host and --port"),
      ],
      takesOutputFlags: false, summary: "Clear the faults of a running emulator (DELETE /emulator/v1/faults)",
      examples: ["authsh emulator faults clear --port 54321", "authsh emulator faults clear --url \"$AUTHSH_EMULATOR_URL\""]),
    CommandSpec(
      ["version"], group: .tools, takesOutputFlags: false, summary: "Show authsh's version (also --version, -V)",
      examples: ["authsh version"]),
    CommandSpec(
      ["completion"], group: .tools, surfaces: .oneShot,
      arguments: [ArgumentSpec("SHELL", .shell, choices: ["bash", "zsh", "fish"], "bash, zsh or fish")],
      takesOutputFlags: false, summary: "Print a shell completion script",
      examples: ["eval \"$(authsh completion bash)\"", "authsh completion fish > ~/.config/fish/completions/authsh.fish"]),
  ]

  /// Flags accepted before or after any one-shot command.
  public static let connectionFlags: [FlagSpec] = [
    FlagSpec("--profile", value: "NAME", kind: .profile, "Use this profile of config.toml"),
    FlagSpec("--provider", value: "PROVIDER", kind: .provider, choices: ["supabase", "firebase"], "supabase or firebase"),
    FlagSpec("--url", value: "URL", kind: .url, "Backend URL (Supabase project URL or emulator URL)"),
    FlagSpec("--key", value: "KEY", kind: .key, secret: true, "Anon key (Supabase) or API key (Firebase)"),
    FlagSpec("--allow-insecure-http", "Allow plain http:// to a non-loopback host"),
    FlagSpec("--emulator", "Use an in-process emulator (the shell, or one-shot commands)"),
    FlagSpec("--like-production", "With --emulator: the emulator behaves like the hosted products"),
    FlagSpec("--no-rc", "Do not run the startup file"),
  ]

  /// Flags any command that talks to a backend accepts, on every surface.
  public static let outputFlags: [FlagSpec] = [
    FlagSpec("--json", "Print the result model as JSON"),
    FlagSpec("--verbose", "Trace requests and responses (secrets redacted)"),
    FlagSpec("--show-tokens", "Print tokens instead of ***"),
    FlagSpec("--timeout", value: "DURATION", kind: .duration, "Request timeout (default 30s)"),
    FlagSpec("--color", value: "WHEN", kind: .text, choices: ["auto", "always", "never"], "Colour: auto, always or never"),
  ]

  public static let globalFlags: [FlagSpec] = connectionFlags + outputFlags + [
    FlagSpec("--help", "Show help"), FlagSpec("--version", "Show the version"),
  ]
}
