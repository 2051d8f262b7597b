import JSONKit

/// `login`, `signup`, `refresh`, `reset confirm`, `whoami`: who is signed in, with the session.
package struct SessionOutput: CommandOutput {
  /// The account as the backend has it now (`whoami`), or made without a session (`signup`).
  package var user: AuthUser?
  package var session: AuthSession?
  /// `signup`: true when a confirmation mail was sent instead of signing in, false when signed in.
  package var confirmationRequired: Bool?

  package init(user: AuthUser? = nil, session: AuthSession?, confirmationRequired: Bool? = nil) {
    self.user = user
    self.session = session
    self.confirmationRequired = confirmationRequired
  }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    OutputJSON.write(user: user, session: session, to: &object, shown)
    if let confirmationRequired { object["confirmation_required"] = .bool(confirmationRequired) }
  }
}

/// `status`, `use`, `provider`: where commands go and who is signed in (psql `\conninfo`).
package struct StatusOutput: CommandOutput {
  package var status: StatusInfo
  package var session: AuthSession?

  package init(status: StatusInfo, session: AuthSession?) {
    self.status = status
    self.session = session
  }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    OutputJSON.write(user: nil, session: session, to: &object, shown)
    object["status"] = [
      "provider": .string(status.provider.rawValue), "profile": .string(status.profile), "url": .string(status.url),
      "signed_in": .bool(status.signedIn), "session_store": .optional(status.sessionStore),
      "session_location": .optional(status.sessionLocation),
      "session_readable": .bool(status.sessionUnreadable == nil),
      "session_unreadable": .optional(status.sessionUnreadable),
    ]
  }
}

/// `reset EMAIL`: the address a reset mail was asked for.
package struct ResetOutput: CommandOutput {
  package var email: String
  package init(email: String) { self.email = email }

  package func write(to object: inout JSONObject, _ shown: OutputShown) { object["reset"] = ["email": .string(email)] }
}

/// `inbox EMAIL`: the newest mail or text, its secrets masked unless shown.
package struct InboxOutput: CommandOutput {
  package var message: InboxMessage
  package init(message: InboxMessage) { self.message = message }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    let message = shown.revealTokens ? self.message : self.message.redacted
    object["inbox"] = [
      "kind": .string(message.kind), "code": .string(message.code), "link": .string(message.link),
      "email": .string(message.email),
    ]
  }
}

/// `user show` (every query listed), `user create` and a change to one account (the account acted on).
package struct AccountsOutput: CommandOutput {
  package var lookups: [UserLookup]
  /// `user show --jsonl`: how many lookups were printed as they completed (and not kept).
  package var streamed = 0
  /// `users` always, one entry per query (`user show`), rather than `user` for one account.
  package var everyQuery: Bool

  package init(lookups: [UserLookup], everyQuery: Bool = false) {
    self.lookups = lookups
    self.everyQuery = everyQuery
  }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    OutputJSON.write(lookups: lookups, everyQuery: everyQuery, to: &object, shown)
  }
}

/// `diagnose EMAIL`: the account and the findings.
package struct DiagnosisOutput: CommandOutput {
  package var lookups: [UserLookup]
  package var diagnosis: Diagnosis

  package init(lookups: [UserLookup], diagnosis: Diagnosis) {
    self.lookups = lookups
    self.diagnosis = diagnosis
  }

  package var isYes: Bool { diagnosis.canSignIn }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    OutputJSON.write(lookups: lookups, everyQuery: false, to: &object, shown)
    object["diagnosis"] = diagnosis.json
  }
}

/// `user history EMAIL`: the backend's trail for the account, newest first.
package struct HistoryOutput: CommandOutput {
  package var lookups: [UserLookup]
  package var history: [AccountEvent]

  package init(lookups: [UserLookup], history: [AccountEvent]) {
    self.lookups = lookups
    self.history = history
  }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    OutputJSON.write(lookups: lookups, everyQuery: false, to: &object, shown)
    object["history"] = .array(history.map(\.json))
  }
}

/// `user link …`: the account and the link made for it (no mail sent).
package struct LinkOutput: CommandOutput {
  package var lookups: [UserLookup]
  package var link: AdminLink

  package init(lookups: [UserLookup], link: AdminLink) {
    self.lookups = lookups
    self.link = link
  }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    OutputJSON.write(lookups: lookups, everyQuery: false, to: &object, shown)
    object["link"] = [
      "kind": .string(link.kind.rawValue), "email": .string(link.email), "url": .string(link.url),
      "code": .optional(link.code),
    ]
  }
}

/// `user list`: one page of accounts, the total when the backend says, the next page's token.
package struct UserPageOutput: CommandOutput {
  package var page: UserPage
  package init(page: UserPage) { self.page = page }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    object["users"] = .array(page.users.map(\.json))
    object["total"] = page.total.map(JSON.int) ?? .null
    object["next_page_token"] = .optional(page.nextPageToken)
  }
}

/// `audit`: the local log's lines.
package struct AuditOutput: CommandOutput {
  package var entries: [AuditEntry]
  package init(entries: [AuditEntry]) { self.entries = entries }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    object["audit"] = .array(entries.map(\.json))
  }
}

/// `secret list`: the names of the stored secrets (never their values).
package struct SecretsOutput: CommandOutput {
  package var names: [String]
  package init(names: [String]) { self.names = names }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    object["secrets"] = .array(names.map { ["name": .string($0)] })
  }
}

/// `mfa list`, `mfa remove`: the signed-in user's second factors.
package struct FactorsOutput: CommandOutput {
  package var user: AuthUser?
  package var session: AuthSession?
  package var factors: [AuthFactor]

  package init(user: AuthUser? = nil, session: AuthSession? = nil, factors: [AuthFactor]) {
    self.user = user
    self.session = session
    self.factors = factors
  }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    OutputJSON.write(user: user, session: session, to: &object, shown)
    object["factors"] = .array(factors.map(\.json))
  }
}

/// `mfa enroll`: the new factor's URI and secret (secrets), its QR code's lines, and the session
/// when the first code was verified.
package struct EnrollmentOutput: CommandOutput {
  package var session: AuthSession?
  package var enrollment: TOTPEnrollment
  package var qrCode: [String]?
  /// Whether human output draws the secret, URI and QR code (a person at a terminal, or
  /// `--show-tokens`); otherwise they print as `***`. JSON shows them with `revealTokens` only.
  package var draws = false

  package init(session: AuthSession? = nil, enrollment: TOTPEnrollment, qrCode: [String]?) {
    self.session = session
    self.enrollment = enrollment
    self.qrCode = qrCode
  }

  package func write(to object: inout JSONObject, _ shown: OutputShown) {
    OutputJSON.write(user: nil, session: session, to: &object, shown)
    let reveal = shown.revealTokens
    let enrollment = reveal ? self.enrollment : self.enrollment.redacted
    object["enrollment"] = [
      "id": .optional(enrollment.factorID), "name": .optional(enrollment.name), "uri": .string(enrollment.uri),
      "secret": .string(enrollment.secret),
      "qr_code": qrCode.map { reveal ? JSON.array($0.map(JSON.string)) : .string(Redactor.mask) } ?? JSON.null,
    ]
  }
}

/// A bulk change (`--from FILE`): its summary, counts by outcome and error code.
package struct BatchOutput: CommandOutput {
  package var summary: JSON
  package init(summary: JSON) { self.summary = summary }

  package func write(to object: inout JSONObject, _ shown: OutputShown) { object["batch"] = summary }
}

/// `user import`: its counts (`import` in `--json`); the summary is the result's `output`.
package struct ImportOutput: CommandOutput {
  package var counts: JSON
  package init(counts: JSON) { self.counts = counts }

  package func write(to object: inout JSONObject, _ shown: OutputShown) { object["import"] = counts }
}
