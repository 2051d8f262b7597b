/// The man page's sections that are prose rather than table data: the .auth language, the
/// environment, files, exit status and examples.
enum ManPageText {
  static func fixedSections(_ page: inout Roff) {
    scripts(&page)
    page.section("ENVIRONMENT")
    for (name, meaning) in environment {
      page.macro("TP")
      page.text("\\fB\(Roff.escape(name))\\fR")
      page.text(Roff.escape(meaning))
    }
    page.section("FILES")
    for (path, meaning) in files {
      page.macro("TP")
      page.text("\\fI\(Roff.escape(path))\\fR")
      page.text(Roff.escape(meaning))
    }
    page.section("EXIT STATUS")
    for (code, meaning) in ExitStatus.documented {
      page.macro("TP")
      page.text("\\fB\(code)\\fR")
      page.text(Roff.escape(meaning))
    }
    page.section("EXAMPLES")
    page.text("Sign up, sign in and look at the session against the embedded emulator:")
    page.literal([
      "authsh emulator &",
      "export SUPABASE_URL=http://127.0.0.1:54321 SUPABASE_ANON_KEY=anon-key",
      "authsh signup ada@example.com --name \"Ada Lovelace\"",
      "authsh login ada@example.com --password-env PW",
      "authsh whoami --json",
    ])
    page.text("A password-reset round trip:")
    page.literal([
      "authsh reset ada@example.com && authsh inbox ada@example.com",
      "authsh reset confirm 'http://127.0.0.1:54321/auth/v1/verify?token=...&type=recovery'",
    ])
    page.text("CI smoke tests with a JUnit report, on the embedded emulator:")
    page.literal(["authsh run --emulator smoke/*.auth --report-junit out.xml"])
    page.section("SEE ALSO")
    page.text("\\fBcurl\\fR(1), \\fBpsql\\fR(1), \\fBeditrc\\fR(5)")
  }

  static func scripts(_ page: inout Roff) {
    page.section("SCRIPTS")
    page.text(
      """
      A .auth file is line-oriented: # starts a comment, arguments are split like a shell's. Every \
      file is lexed, parsed and checked before anything runs; problems are shown as file:line:col \
      with a caret and the run exits 2 without sending a request. Statements:
      """)
    let statements: [(String, String)] = [
      ("COMMAND ...", "any command above (signup, login, whoami, reset confirm, ...)"),
      ("expect ok | expect error CODE", "check the previous command's outcome"),
      (
        "assert [not] QUERY PREDICATE [VALUE]",
        "check the previous result; predicates == != < <= > >= contains startsWith endsWith matches exists isEmpty; literals \"text\", 42, 1.5, true, false, null"
      ),
      ("capture NAME = QUERY", "keep a value of the previous result"),
      ("let NAME = VALUE", "define a variable"),
      ("secret NAME = VALUE", "define a variable that is masked everywhere"),
      ("test \"NAME\"", "start a named test, which runs to the next test line"),
      ("include FILE.auth", "run another file's statements inline (relative to this file)"),
    ]
    for (form, meaning) in statements {
      page.macro("TP")
      page.text("\\fB\(Roff.escape(form))\\fR")
      page.text(Roff.escape(meaning))
    }
    page.paragraph()
    page.text(
      """
      {{NAME}} interpolates variables, --var NAME=VALUE, AUTHSH_VAR_NAME, {{env.NAME}}, the builtins \
      \(TemplateBuiltin.listed), and the previous result ({{inbox.link}}). Queries read \
      the result model: ok, error.code, error.message, user.email, user.email_confirmed, \
      session.expires_in, claims.*, inbox.link, status.signed_in and so on (see --json output).
      """)
  }

  static let environment: [(String, String)] = [
    ("SUPABASE_URL, SUPABASE_ANON_KEY", "The Supabase project URL and anon key."),
    ("FIREBASE_API_KEY, FIREBASE_PROJECT_ID", "The Firebase Web API key and project id."),
    ("FIREBASE_AUTH_EMULATOR_HOST", "host:port of a Firebase Auth emulator, as the official SDKs read it."),
    ("AUTHSH_PROFILE", "The profile of config.toml to use."),
    ("AUTHSH_CONFIG_DIR", "The directory holding config.toml and rc (default $XDG_CONFIG_HOME/authsh)."),
    ("AUTHSH_HISTFILE", "The shell's history file; /dev/null disables it."),
    (
      "AUTHSH_CREDENTIAL_STORE",
      "Where sessions are kept: auto (the platform keyring, else the 0600 file), keyring or file."
    ),
    ("AUTHSH_NO_HINTS", "Set to 1 to turn off the shell's grey argument hints."),
    ("AUTHSH_VAR_NAME", "A script variable NAME for authsh run."),
    ("XDG_CONFIG_HOME, XDG_STATE_HOME", "Base directories for configuration and state."),
    ("NO_COLOR", "Turns colour off."),
  ]

  static let files: [(String, String)] = [
    (
      "$XDG_CONFIG_HOME/authsh/config.toml",
      "Profiles: provider, url, key_env or key, project_id, emulator_host (TOML; unknown keys are errors, exit 78)."
    ),
    ("$XDG_CONFIG_HOME/authsh/rc", "Commands the interactive shell runs at start (--no-rc skips it)."),
    (
      "$XDG_STATE_HOME/authsh/sessions/",
      "Saved sessions, one file per backend (provider, endpoint and Firebase project), mode 0600 in a 0700 directory owned by you. With a keyring (the Secret Service on Linux, the login Keychain on macOS) the tokens are kept there, items with service=authsh, and the file keeps the rest."
    ),
    (
      "$XDG_STATE_HOME/authsh/history",
      "The interactive shell's history, mode 0600; lines carrying a secret are never written."
    ),
  ]
}
