extension CommandTable {
  static let userArgument = ArgumentSpec("EMAIL", .email, "The account's e-mail address (or its user id)")
  static let yesFlag = FlagSpec("--yes", "Do it without asking (needed without a terminal)")

  static let changeDiscussion = supportDiscussion
    + " A readonly profile (readonly = true) refuses it before anything is sent; each use is"
    + " recorded in the audit log (authsh audit)."
  static let destructiveDiscussion = changeDiscussion
    + " On a terminal it shows the account and asks you to type its e-mail address to confirm;"
    + " without a terminal it needs --yes (or exits 64)."

  static let linkDiscussion = supportDiscussion
    + " The link alone goes to standard output (for the clipboard), the notes to standard error."
    + " Whoever opens it is signed in as the user: hand it only to the account's owner."

  static let supportDiscussion = """
    Uses the backend's admin API: Supabase with a service_role key or a secret key (sb_secret_…) \
    from SUPABASE_SERVICE_ROLE_KEY / SUPABASE_SECRET_KEY or the profile's service_key_env / \
    service_key; Firebase with a Google service account (GOOGLE_APPLICATION_CREDENTIALS or the \
    profile's credentials_file). Nothing is sent as the user.
    """

  static let supportCommands: [CommandSpec] = [
    CommandSpec(
      ["user", "show"], group: .support,
      arguments: [ArgumentSpec("EMAIL", .email, optional: true, variadic: true, "E-mail addresses or user ids")],
      flags: [
        FlagSpec("--from", value: "FILE", kind: .path, "Read addresses from FILE, one per line (- for standard input)"),
        FlagSpec("--jsonl", "One JSON result per line, printed as each lookup completes"),
        FlagSpec("--jobs", value: "N", kind: .number, "Look up N accounts at a time (default 8, at most 64)"),
      ],
      loading: "Looking up…", summary: "Show accounts as support sees them (confirmed, last sign-in, disabled, methods)",
      discussion: supportDiscussion
        + " FILE has one address or id per line; blank lines and lines starting with # are skipped."
        + " Results are in input order (--jsonl: in the order the lookups complete). Missing accounts are"
        + " reported, not fatal: the exit status is 0 when every account was found, 1 when any is missing"
        + " or failed (like grep), 3 when the backend could not be reached.",
      examples: ["authsh user show ada@example.com", "authsh user show --from ticket.txt --json"]),
    CommandSpec(
      ["user", "list"], group: .support,
      flags: [
        FlagSpec("--filter", value: "TEXT", kind: .text, "Only accounts whose e-mail or name contains TEXT"),
        FlagSpec("--limit", value: "N", kind: .number, "Accounts per page (default 50)"),
        FlagSpec("--page-token", value: "TOKEN", kind: .text, "The page to show, as the previous page printed"),
      ],
      loading: "Listing…", summary: "List accounts, a page at a time, newest first where the backend allows",
      discussion: supportDiscussion + " Shows how many accounts there are when the backend says, and the command for the next page.", examples: ["authsh user list --filter @example.com --limit 20"]),
    CommandSpec(
      ["user", "link", "recovery"], group: .support, arguments: [userArgument], loading: "Generating…",
      summary: "Make a password-recovery link to hand over (no mail is sent)", discussion: linkDiscussion,
      examples: ["authsh user link recovery ada@example.com"]),
    CommandSpec(
      ["user", "link", "confirm"], group: .support, arguments: [userArgument], loading: "Generating…",
      summary: "Make a sign-up confirmation link to hand over (no mail is sent)", discussion: linkDiscussion),
    CommandSpec(
      ["user", "confirm"], group: .support, arguments: [userArgument], loading: "Confirming…", mutating: true,
      summary: "Mark the account's e-mail address confirmed", discussion: changeDiscussion),
    CommandSpec(
      ["user", "resend"], group: .support, arguments: [userArgument], loading: "Sending…", mutating: true,
      summary: "Send the confirmation e-mail again (the backend's resend limits apply)", discussion: changeDiscussion),
    CommandSpec(
      ["user", "disable"], group: .support, arguments: [userArgument],
      flags: [FlagSpec("--until", value: "DURATION", kind: .duration, "Re-enable by itself after DURATION (Supabase only), e.g. 24h or 7d"), yesFlag],
      loading: "Disabling…", destructive: true, summary: "Stop the account from signing in",
      discussion: destructiveDiscussion, examples: ["authsh user disable mallory@example.com --until 24h"]),
    CommandSpec(
      ["user", "enable"], group: .support, arguments: [userArgument], loading: "Enabling…", mutating: true,
      summary: "Let a disabled account sign in again", discussion: changeDiscussion),
    CommandSpec(
      ["user", "set-password"], group: .support, arguments: [userArgument], flags: passwordFlags + [yesFlag],
      loading: "Saving…", destructive: true, summary: "Set the account's password (asked twice without echo)",
      discussion: destructiveDiscussion),
    CommandSpec(
      ["user", "create"], group: .support, arguments: [userArgument],
      flags: [
        FlagSpec("--confirmed", "Create the account with its e-mail already confirmed"),
        FlagSpec("--name", value: "NAME", kind: .name, "The user's name"),
      ] + passwordFlags,
      loading: "Creating account…", mutating: true, summary: "Create an account through the admin API",
      discussion: changeDiscussion, examples: ["authsh user create ada@example.com --confirmed --password-env PW"]),
    CommandSpec(
      ["user", "delete"], group: .support, arguments: [userArgument],
      flags: [FlagSpec("--soft", "Supabase: soft delete (the account is kept, its e-mail freed)"), yesFlag],
      loading: "Deleting…", destructive: true, summary: "Delete the account", discussion: destructiveDiscussion),
    CommandSpec(
      ["user", "signout"], group: .support, arguments: [userArgument], flags: [yesFlag], loading: "Signing out…",
      destructive: true, summary: "End every session of the account where the backend allows",
      discussion: destructiveDiscussion),
    CommandSpec(
      ["diagnose"], group: .support, arguments: [userArgument], loading: "Diagnosing…",
      summary: "Why can't this person sign in? Checks the account from the admin view and names the fix",
      discussion: supportDiscussion, examples: ["authsh diagnose ada@example.com"]),
    CommandSpec(
      ["audit"], group: .support,
      flags: [FlagSpec("--since", value: "DURATION", kind: .duration, "Only entries newer than DURATION, e.g. 24h or 7d")],
      summary: "Show the log of account changes made with authsh (audit.jsonl)",
      discussion: "Local only: reads $XDG_STATE_HOME/authsh/audit.jsonl."),
  ]
}
