extension CommandTable {
  static let bulkDiscussion = """
     With --from FILE (- for standard input) it changes every account listed: one address or id \
    per line (blank lines and # comments skipped), a CSV file with an email or id column, or a \
    --report file of an earlier run (with --only-failed, just the accounts that failed). Lines \
    that are not an address or id are reported and the rest go on. It asks once for the whole \
    batch on a terminal (type the number of accounts to confirm; without a terminal it needs \
    --yes or exits 64), changes --jobs N accounts at a time (default 4), shows progress on \
    standard error (a line per account when it is not a terminal), and ends with a summary: \
    changed, unchanged, not found, failed by error code. Exit status 0 when every account was \
    changed or already as asked, 1 when any was not found or failed (3 when the first failure \
    was the backend not answering). Rate limits (429, Retry-After) slow the whole batch down \
    and are retried, as are 5xx answers and timeouts (a bounded number of times); other errors \
    fail that account only. --dry-run looks the accounts up and says what would change, sends \
    no change and writes nothing to the audit log. Each account gets its own pair of audit \
    lines (started, then its outcome).
    """

  static let changeDiscussion =
    supportDiscussion
    + " A readonly profile (readonly = true) refuses it before anything is sent; each use is"
    + " recorded in the audit log (authsh audit)."
  static let destructiveDiscussion =
    changeDiscussion
    + " On a terminal it shows the account and asks you to type its e-mail address to confirm;"
    + " without a terminal it needs --yes (or exits 64)."

  static let linkDiscussion =
    supportDiscussion
    + " One account at a time (no --from): each link is a secret for one person."
    + " The link alone goes to standard output (for the clipboard), the notes to standard error."
    + " Whoever opens it is signed in as the user: hand it only to the account's owner. So it is"
    + " treated like a change: a readonly profile refuses it, a terminal asks you to type the"
    + " account's e-mail address to confirm (without one it needs --yes), and every link made is"
    + " recorded in the audit log (authsh audit)."

  /// What `diagnose` can find (`diagnosis.findings[].code`), in the order it reports them.
  static let findingsDiscussion = """
    Findings (diagnosis.findings[].code), blocking unless marked: no_account (fix: user list \
    --filter); password_sign_in_disabled (the project's setting); soft_deleted (Supabase, by id: \
    the row stays, nothing can be restored); anonymous (no e-mail, no password); sso_user (their \
    identity provider manages the account: use the SSO button); invite_pending (invited, never \
    accepted: user link invite); email_link_only (e-mail links, no password: user link recovery \
    sets one); no_password (signed up with Google, Apple, GitHub…: use that button, or user link \
    recovery); email_unconfirmed (blocking on Supabase, a note on Firebase: user confirm); \
    disabled (user enable); mfa_enrolled (note: a second factor is asked after the password; \
    user mfa reset if it is lost); totp_off (note, Firebase: the project has TOTP second factors \
    off, so mfa enroll is refused); recovery_pending and resend_window_closed (notes); ok. On \
    Supabase the backend's audit trail adds the last sign-in and the last recovery request \
    (diagnosis.last_sign_in, diagnosis.last_recovery_request).
    """

  static let supportDiscussion = """
    Uses the backend's admin API: Supabase with a service_role key or a secret key (sb_secret_…) \
    from SUPABASE_SERVICE_ROLE_KEY / SUPABASE_SECRET_KEY or the profile's service_key_env / \
    service_key_keyring / service_key; Firebase with a Google service account \
    (GOOGLE_APPLICATION_CREDENTIALS or the profile's credentials_keyring / credentials_file; \
    `authsh secret set NAME` puts a key in the keyring). Nothing is sent as the user.
    """

  static let supportCommands: [CommandSpec] = [
    CommandSpec(
      .userShow, group: .support,
      arguments: [ArgumentKey.lookupUsers],
      flags: [FlagKey.from, FlagKey.jsonl, FlagKey.lookupJobs],
      loading: Loading("Looking up…"), access: .read,
      summary: "Show accounts as support sees them (confirmed, last sign-in, disabled, methods)",
      discussion: supportDiscussion
        + " FILE has one address, id or phone number per line; blank lines and lines starting with # are skipped."
        + " A phone number is E.164 (+15551234567). Text that is none of them, a name, is refused before anything"
        + " is sent: `authsh user list --filter TEXT` searches addresses and names."
        + " Results are in input order (--jsonl: in the order the lookups complete). Missing accounts are"
        + " reported, not fatal: the exit status is 0 when every account was found, 1 when any is missing"
        + " or failed (like grep), 3 when the backend could not be reached. --json always has `users`"
        + " (one entry per address; `user` too for exactly one found) and `ok` false whenever the exit"
        + " status is not 0.",
      examples: [
        "authsh user show ada@example.com", "authsh user show +15551234567",
        "authsh user show --from ticket.txt --json",
      ]),
    CommandSpec(
      .userList, group: .support, flags: [FlagKey.filter, FlagKey.limit, FlagKey.pageToken, FlagKey.maxPages],
      loading: Loading("Listing…"), access: .read,
      summary: "List accounts, a page at a time, newest first where the backend allows",
      discussion: supportDiscussion
        + " Shows how many accounts there are when the backend says, and the command for the next page."
        + " Firebase's list API has no filter: --filter reads pages of accounts and keeps the matches, up to"
        + " 10,000 accounts per call (a terminal shows how far the scan has got); --max-pages N stops sooner and"
        + " says how far it got, with the command to go on. A server that repeats a page token stops the scan"
        + " with an error. Supabase filters addresses and names on the server; a phone number (+1555…) is matched"
        + " by authsh over the pages it reads, as on Firebase.",
      examples: ["authsh user list --filter @example.com --limit 20", "authsh user list --filter 'Ada Lovelace'"]),
    CommandSpec(
      .userLinkRecovery, group: .support, arguments: [ArgumentKey.user], flags: [FlagKey.yes],
      loading: Loading("Generating…"),
      access: .grant, summary: "Make a password-recovery link to hand over (no mail is sent)",
      discussion: linkDiscussion,
      examples: ["authsh user link recovery ada@example.com", "authsh user link recovery ada@example.com --yes"]),
    CommandSpec(
      .userLinkConfirm, group: .support, arguments: [ArgumentKey.user], flags: [FlagKey.yes],
      loading: Loading("Generating…"),
      access: .grant, summary: "Make a sign-up confirmation link to hand over (no mail is sent)",
      discussion: linkDiscussion),
    CommandSpec(
      .userLinkInvite, group: .support, arguments: [ArgumentKey.user], flags: [FlagKey.yes],
      loading: Loading("Generating…"),
      access: .grant,
      summary: "Make an invitation link to hand over for an invite not yet accepted (Supabase; no mail is sent)",
      discussion: linkDiscussion + " Following it accepts the invitation and lets the person set a password."
        + " Firebase has no invitations: use user link recovery.",
      examples: ["authsh user link invite new@example.com --yes"]),
    CommandSpec(
      .userConfirm, group: .support, arguments: [ArgumentKey.bulkUser], flags: bulkFlags + [FlagKey.yes],
      loading: Loading("Confirming…"), access: .change,
      summary: "Mark the account's e-mail address confirmed", discussion: changeDiscussion + bulkDiscussion,
      examples: ["authsh user confirm ada@example.com", "authsh user confirm --from signups.txt --yes"]),
    CommandSpec(
      .userResend, group: .support, arguments: [ArgumentKey.bulkUser], flags: bulkFlags + [FlagKey.yes],
      loading: Loading("Sending…"), access: .change,
      summary: "Send the confirmation e-mail again (the backend's resend limits apply)",
      discussion: changeDiscussion + bulkDiscussion
        + " A resend is not retried after a timeout (the mail may have gone out); only after a rate limit."),
    CommandSpec(
      .userDisable, group: .support, arguments: [ArgumentKey.bulkUser],
      flags: [FlagKey.until, FlagKey.yes] + bulkFlags,
      loading: Loading("Disabling…"), access: .destroy, summary: "Stop the account from signing in",
      discussion: destructiveDiscussion + bulkDiscussion,
      examples: [
        "authsh user disable mallory@example.com --until 24h",
        "authsh user disable mallory@example.com --until 7d --yes",
      ]),
    CommandSpec(
      .userEnable, group: .support, arguments: [ArgumentKey.bulkUser], flags: bulkFlags + [FlagKey.yes],
      loading: Loading("Enabling…"), access: .change,
      summary: "Let a disabled account sign in again", discussion: changeDiscussion + bulkDiscussion),
    CommandSpec(
      .userSetPassword, group: .support, arguments: [ArgumentKey.user], flags: passwordFlags + [FlagKey.yes],
      loading: Loading("Saving…"), access: .grant, summary: "Set the account's password (asked twice without echo)",
      discussion: destructiveDiscussion
        + " One account at a time (no --from): one password for many accounts would be a shared secret;"
        + " for many accounts use user link recovery per person, or user disable --from."),
    CommandSpec(
      .userSetEmail, group: .support,
      arguments: [ArgumentKey.user, ArgumentKey.newEmail], flags: [FlagKey.newConfirmed],
      loading: Loading("Saving…"), access: .change,
      summary: "Change the account's e-mail address at once (for \"I changed my e-mail\" tickets)",
      discussion: changeDiscussion
        + " No mail is sent: the person signs in with the new address right away. Without --confirmed,"
        + " Firebase marks the new address unverified; Supabase keeps the account's confirmation as it was.",
      examples: ["authsh user set-email ada@example.com ada@newmail.example --confirmed"]),
    CommandSpec(
      .userUpdate, group: .support, arguments: [ArgumentKey.bulkUser],
      flags: [FlagKey.updateName, FlagKey.meta, FlagKey.appMeta, FlagKey.customClaims, FlagKey.phone, FlagKey.yes]
        + bulkFlags,
      loading: Loading("Saving…"), access: .change,
      summary: "Change the display name, metadata, custom claims or phone number",
      discussion: changeDiscussion + bulkDiscussion
        + " Keys are merged into what the account has; a key set to null is removed. --app-meta and"
        + " --claims can grant roles, so they are confirmed like a grant: on a terminal it asks you to"
        + " type the account's e-mail address (without one it needs --yes). Firebase accounts have no"
        + " user metadata (--meta); on Supabase, --claims keys go to app_metadata, which is in every access token."
        + " With --from, an account that already holds every value asked is unchanged: nothing is sent for it.",
      examples: [
        "authsh user update ada@example.com --name 'Ada Lovelace' --meta plan=pro",
        "authsh user update ada@example.com --claims '{\"role\":\"admin\"}' --yes",
        "authsh user update ada@example.com --phone +15551234567",
      ]),
    CommandSpec(
      .userCreate, group: .support, arguments: [ArgumentKey.user],
      flags: [FlagKey.confirmed, FlagKey.accountName] + passwordFlags,
      loading: Loading("Creating account…"), access: .change, summary: "Create an account through the admin API",
      discussion: changeDiscussion, examples: ["authsh user create ada@example.com --confirmed --password-env PW"]),
    CommandSpec(
      .userDelete, group: .support, arguments: [ArgumentKey.bulkUser], flags: [FlagKey.soft, FlagKey.yes] + bulkFlags,
      loading: Loading("Deleting…"), access: .destroy, summary: "Delete the account",
      discussion: destructiveDiscussion + bulkDiscussion,
      examples: ["authsh user delete ada@example.com", "authsh user delete --from smoke-accounts.txt --dry-run"]),
    CommandSpec(
      .userSignout, group: .support, arguments: [ArgumentKey.bulkUser], flags: [FlagKey.yes] + bulkFlags,
      loading: Loading("Signing out…"),
      access: .destroy, summary: "End every session of the account where the backend allows",
      discussion: destructiveDiscussion + bulkDiscussion),
    CommandSpec(
      .userMfaReset, group: .support, arguments: [ArgumentKey.bulkUser],
      flags: [FlagKey.resetFactor, FlagKey.yes] + bulkFlags,
      loading: Loading("Removing second factors…"), access: .destroy,
      summary: "Remove the account's second factors (\"I lost my phone\"); it signs in with the password alone",
      discussion: destructiveDiscussion + bulkDiscussion
        + " Supabase: DELETE /admin/users/{id}/factors/{factor}, one per factor (sessions that used it drop"
        + " to aal1); Firebase: accounts:update with the enrolments to keep. The person can enrol a new"
        + " authenticator after signing in.",
      examples: ["authsh user mfa reset ada@example.com", "authsh user mfa reset ada@example.com --factor phone --yes"]),
    CommandSpec(
      .userHistory, group: .support, arguments: [ArgumentKey.user], flags: [FlagKey.since],
      loading: Loading("Reading the audit trail…"),
      access: .read,
      summary:
        "The backend's own trail for the account, newest first: sign-ins, recovery requests, password and factor changes",
      discussion: supportDiscussion
        + " Supabase: GoTrue's audit trail (GET /admin/audit; failed password attempts are not recorded"
        + " there, and hosted projects may send the trail to their logs only). Firebase keeps none in"
        + " its API: the error names Cloud Logging.",
      examples: ["authsh user history ada@example.com --since 7d"]),
    CommandSpec(
      .diagnose, group: .support, arguments: [ArgumentKey.user], loading: Loading("Diagnosing…"), access: .read,
      summary: "Why can't this person sign in? Checks the account from the admin view and names the fix",
      discussion: supportDiscussion + " " + findingsDiscussion
        + " Exits like grep: 0 when nothing in the account stops a password sign-in, 1 when a finding does or"
        + " there is no account, 3 when the backend could not answer (`ok` in --json agrees).",
      examples: ["authsh diagnose ada@example.com", "authsh diagnose 00000000-0000-4000-8000-00000000a11e --json"]),
    CommandSpec(
      .audit, group: .support,
      arguments: [ArgumentKey.auditUser],
      flags: [FlagKey.since, FlagKey.allBackends],
      summary: "Show the log of account changes made with authsh (audit.jsonl)",
      discussion: """
        Local only: reads $XDG_STATE_HOME/authsh/audit.jsonl. Each line says who made the change \
        (the OS user and host) and on which backend (provider and URL, and the project for \
        Firebase). With a backend set (a profile, --url, SUPABASE_URL, FIREBASE_PROJECT_ID…) only \
        that backend's lines are shown, and a note counts the others; --all-backends shows every \
        line, also those written by older versions, which name no backend. Changes to the \
        throwaway accounts of an in-process emulator (--emulator, run --emulator) are not written \
        there; `audit` in such a session shows them.
        """,
      examples: [
        "authsh audit", "authsh audit --since 7d", "authsh audit ada@example.com", "authsh audit --all-backends",
      ]),
  ]
}
