/// The one command table. Nothing else lists commands: help, completion, history redaction and the
/// script checker all read this.
package enum CommandTable {
  package static let all: [CommandSpec] =
    accountCommands + sessionCommands + mfaCommands + supportCommands + transferCommands + importCommands
    + backendCommands + shellCommands + toolCommands + secretCommands

  /// Other words people type for a command (`signin` is `login`), accepted wherever commands are.
  package static let aliases: [String: String] = ["signin": "login", "sign-in": "login"]

  private static let byID: [CommandID: CommandSpec] = Dictionary(
    all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

  /// The row of a command (every `CommandID` has one; a test checks it).
  package static func spec(_ id: CommandID) -> CommandSpec {
    guard let spec = byID[id] else { preconditionFailure("no row for '\(id.rawValue)' in the command table") }
    return spec
  }

  /// Rows by their first word: a line is matched against the few rows its first word can begin
  /// (a script parses every line, some twice), not the whole table.
  private static let rowsByFirstWord: [String: [Int]] = Dictionary(grouping: all.indices) { all[$0].words.first ?? "" }

  /// The spec whose words begin `words` (longest match: `reset confirm` before `reset`).
  package static func match(_ words: [String]) -> (spec: CommandSpec, consumed: Int)? {
    guard let typed = words.first else { return nil }
    var best: Int?
    var bestLength = 0
    for row in rowsByFirstWord[aliases[typed] ?? typed] ?? [] {
      let length = all[row].words.count
      guard length <= words.count, length > bestLength, all[row].words.dropFirst().elementsEqual(words[1..<length])
      else { continue }
      best = row
      bestLength = length
    }
    return best.map { (all[$0], bestLength) }
  }

  package static func named(_ name: String) -> CommandSpec? { CommandID(rawValue: name).map(spec) }

  /// The commands whose words begin with `words` but are longer (`user` → `user show`, `user list`,
  /// …; `user link` → `user link recovery`, `user link confirm`), on a surface.
  package static func group(_ words: [String], on surface: Surfaces = .all) -> [CommandSpec] {
    guard let first = words.first else { return [] }
    return (rowsByFirstWord[first] ?? []).map { all[$0] }.filter { spec in
      spec.words.count > words.count && spec.words.prefix(words.count).elementsEqual(words)
        && !spec.surfaces.isDisjoint(with: surface)
    }
  }

  /// What a group of commands with no command of its own is for (`user`, `mfa`): completion
  /// and help describe the group with this, not with its first command's summary.
  package static let groupSummaries: [String: String] = [
    "mfa": "Your own second factors: enroll an authenticator app, list or remove them",
    "user": "Support: show, list, change, diagnose or delete any account (admin key)",
    "secret": "Keys kept in the system keyring: set, list, delete, migrate",
    "user link": "A recovery, confirmation or invitation link, made without sending mail",
    "user mfa": "An account's second factors (support)",
    "emulator faults": "The emulator's injected faults",
  ]

  /// Top-level command words usable on a surface (`reset` once, for `reset` and `reset confirm`).
  package static func firstWords(on surface: Surfaces) -> [String] {
    var seen: [String] = []
    for spec in all where !spec.surfaces.isDisjoint(with: surface) {
      if let first = spec.words.first, !seen.contains(first) { seen.append(first) }
    }
    return seen
  }

  static let accountCommands: [CommandSpec] = [
    CommandSpec(
      .signup, group: .account, arguments: [ArgumentKey.accountEmail],
      flags: [FlagKey.signupName] + passwordFlags,
      loading: Loading("Creating account…", host: "Creating account on %@…"), changesOwnAccount: true,
      summary: "Create an account",
      discussion: """
        Creates the account and, when the backend signs the new user in at once, stores the session. \
        With no password source on a terminal, asks for the password twice (no echo), again if the \
        two differ; a missing e-mail or name is asked for too.
        """,
      examples: [
        "authsh signup ada@example.com --name 'Ada Lovelace'",
        "authsh signup ada@example.com --name Ada --password-env PW",
      ]),
    CommandSpec(
      .login, group: .account, arguments: [ArgumentKey.accountEmail],
      flags: passwordFlags + [FlagKey.remember, FlagKey.noSave] + secondFactorFlags
        + [
          FlagKey.link, FlagKey.loginPhone, FlagKey.sendOnly, FlagKey.customToken, FlagKey.customTokenEnv,
          FlagKey.oauth,
        ],
      loading: Loading("Signing in…", host: "Signing in to %@…"),
      summary: "Sign in with e-mail and password",
      discussion: """
        Signs in and stores the session of the active profile, so a later `authsh whoami` works. \
        On a terminal, a missing e-mail (none given or remembered) is asked for. An account with a \
        second factor (an authenticator app) then needs its code: asked on a terminal (no echo), or \
        given with --code, --code-env VAR or --totp-secret-env VAR (authsh computes the code from \
        the secret, for CI); without any, mfa_required. With several factors, --factor picks one. \
        --link signs in without a password: a link and a code are mailed to EMAIL; paste either \
        (on an emulator, authsh reads it from the outbox itself). \
        --phone NUMBER signs in with a 6-digit code texted to the number instead (a new number gets \
        an account): on a terminal the code is asked for; otherwise text it with --send-only and \
        finish with --code or --code-env (--code never texts a new one). On an emulator, `authsh \
        inbox NUMBER` shows the code. \
        --oauth PROVIDER signs in with Google, GitHub, … in a browser: authsh listens on a loopback \
        address, opens the provider's page (with no display it prints the address to open) and \
        saves the session the browser comes back with. On an emulator the provider's page lets you \
        pick one of its accounts or add one.
        """,
      examples: [
        "authsh login ada@example.com", "PW=… authsh login ada@example.com --password-env PW --json",
        "authsh login ada@example.com --password-env PW --totp-secret-env TOTP_SECRET",
        "authsh login --link ada@example.com", "authsh login --phone +15551234567",
        "authsh login --phone +15551234567 --send-only", "authsh login --phone +15551234567 --code-env SMS_CODE",
        "authsh login --oauth google",
      ]),
    CommandSpec(
      .reset, group: .account, arguments: [ArgumentKey.resetAddress],
      loading: Loading("Sending…", host: "Requesting a reset e-mail from %@…"), changesOwnAccount: true,
      summary: "Request a password-reset e-mail",
      discussion:
        "Sends the reset e-mail (on a terminal, asks for the address if none is given). The same address can be sent another one after 60 seconds.",
      examples: ["authsh reset ada@example.com"]),
    CommandSpec(
      .resetConfirm, group: .account,
      arguments: [ArgumentKey.codeOrLink],
      flags: [FlagKey.resetEmail] + passwordFlags,
      loading: Loading("Saving…", host: "Saving the new password on %@…"), changesOwnAccount: true,
      summary: "Set a new password from the e-mailed link or code",
      discussion:
        "Sets the new password and signs in. With no password source on a terminal, asks twice (no echo), again if the two differ.",
      examples: [
        "authsh reset confirm 'http://127.0.0.1:54321/auth/v1/verify?token=…&type=recovery'",
        "authsh reset confirm 123456 --email ada@example.com",
      ]),
  ]

  static let sessionCommands: [CommandSpec] = [
    CommandSpec(
      .whoami, group: .session, flags: [FlagKey.claims],
      loading: Loading("Loading…", host: "Loading the user from %@…"),
      summary: "Show the signed-in user, fresh from the server",
      examples: ["authsh whoami", "authsh whoami --claims --json"]),
    CommandSpec(
      .logout, group: .session,
      flags: [FlagKey.scope],
      loading: Loading("Signing out…", host: "Signing out of %@…"), changesOwnAccount: true,
      summary: "Sign out and forget the session",
      discussion: """
        Ends only the session authsh holds unless --scope says otherwise, so signing out never ends \
        the person's sessions on their phone or laptop by surprise. The message says which sessions \
        ended. Firebase has no sign-out call: the session is forgotten here, and its tokens stay \
        valid until they expire (revoke them with `authsh user signout EMAIL`).
        """),
    CommandSpec(
      .refresh, group: .session, loading: Loading("Refreshing…", host: "Refreshing the session with %@…"),
      summary: "Exchange the refresh token for new tokens"),
    CommandSpec(
      .status, group: .session, summary: "Show provider, profile, endpoint, signed-in user and token expiry",
      discussion: "Local only: nothing is sent. Like psql's \\conninfo."),
    CommandSpec(
      .inbox, group: .session, arguments: [ArgumentKey.inboxAddress],
      loading: Loading("Checking…", host: "Checking the mail at %@…"),
      summary: "Show the latest mail (or text) an emulator \"sent\" to EMAIL or +PHONE (kind, code, link)",
      discussion: """
        Reads the emulator's outbox (the official Firebase emulator's oobCodes work too). A phone \
        number in E.164 (+15551234567) shows the latest code texted to it (kind sms; the official \
        Firebase emulator's verificationCodes work too).
        """,
      examples: ["authsh inbox ada@example.com", "authsh inbox +15551234567 --json"]),
  ]

  static let backendCommands: [CommandSpec] = [
    CommandSpec(
      .use, group: .backend, surfaces: .interactive, arguments: [ArgumentKey.profileName],
      takesOutputFlags: false, summary: "Switch to a configured profile"),
    CommandSpec(
      .provider, group: .backend, surfaces: .interactive,
      arguments: [ArgumentKey.providerKind],
      flags: [FlagKey.providerURL, FlagKey.providerKey],
      takesOutputFlags: false, summary: "Switch backend"),
  ]

  static let shellCommands: [CommandSpec] = [
    CommandSpec(
      .help, group: .shell, arguments: [ArgumentKey.helpTopic],
      takesOutputFlags: false, summary: "Show help for all commands or one"),
    CommandSpec(
      .sleep, group: .shell, surfaces: .interactive, arguments: [ArgumentKey.sleepDuration],
      takesOutputFlags: false, summary: "Wait"),
    CommandSpec(
      .echo, group: .shell, surfaces: .interactive, arguments: [ArgumentKey.echoText],
      takesOutputFlags: false, summary: "Print text"),
    CommandSpec(
      .retry, group: .shell, surfaces: .repl, takesOutputFlags: false, summary: "Run the last failed command again"),
    CommandSpec(
      .history, group: .shell, surfaces: .repl, takesOutputFlags: false, summary: "List this session's commands"),
    CommandSpec(
      .source, group: .shell, surfaces: .repl, arguments: [ArgumentKey.sourceFile],
      takesOutputFlags: false, summary: "Run a .auth script in this shell"),
    CommandSpec(.clear, group: .shell, surfaces: .repl, takesOutputFlags: false, summary: "Clear the screen"),
    CommandSpec(
      .quit, group: .shell, surfaces: .repl, takesOutputFlags: false, summary: "Leave the shell (also exit, Ctrl-D)"),
    CommandSpec(
      .exit, group: .shell, surfaces: .repl, takesOutputFlags: false, summary: "Leave the shell (also quit, Ctrl-D)"),
  ]
}

extension CommandTable {
  static let mfaDiscussion = """
    The signed-in user's own second factors (TOTP authenticator apps). Supabase: /factors; \
    Firebase: Identity Platform's mfaEnrollment calls.
    """

  static let mfaCommands: [CommandSpec] = [
    CommandSpec(
      .mfaEnroll, group: .session, flags: [FlagKey.factorName, FlagKey.selfVerify],
      loading: Loading("Enrolling…", host: "Enrolling a factor on %@…"), changesOwnAccount: true,
      summary: "Add an authenticator app as a second factor",
      discussion: mfaDiscussion + """
         Prints the otpauth:// URI, the secret (*** without --show-tokens) and a QR code to scan, \
        then asks for the first code from the app (no echo) to confirm it. Without a terminal, \
        --self-verify confirms it with a code computed from the secret.
        """,
      examples: ["authsh mfa enroll --name phone", "authsh mfa enroll --name ci --self-verify --json --show-tokens"]),
    CommandSpec(
      .mfaList, group: .session, loading: Loading("Loading…", host: "Loading the factors from %@…"),
      summary: "List the signed-in user's second factors", discussion: mfaDiscussion),
    CommandSpec(
      .mfaRemove, group: .session, arguments: [ArgumentKey.mfaFactor],
      flags: [FlagKey.yes],
      loading: Loading("Removing…", host: "Removing the factor on %@…"), changesOwnAccount: true,
      summary: "Remove one of the signed-in user's second factors",
      discussion: mfaDiscussion + """
         Asks for confirmation on a terminal; needs --yes without one. Supabase removes a verified \
        factor only from a session signed in with a second factor (aal2).
        """,
      examples: ["authsh mfa remove phone --yes"]),
  ]
}
