import JSONKit

/// `status.*`: where commands go and who is signed in (psql `\conninfo`).
package struct StatusInfo: Sendable, Equatable {
  package var provider: ProviderKind
  package var profile: String
  package var url: String
  package var signedIn: Bool
  /// Where the session is kept: `keyring`, `file` or `memory`.
  package var sessionStore: String?
  /// The keyring or file, in words (`status.session_location`).
  package var sessionLocation: String?
  /// Why the saved session cannot be read here (`status.session_unreadable`), or nil.
  package var sessionUnreadable: String?
  package init(provider: ProviderKind, profile: String, url: String, signedIn: Bool) {
    self.provider = provider
    self.profile = profile
    self.url = url
    self.signedIn = signedIn
  }
}

/// What one command produced: the result model, shared by `--json`, assertions and reports.
package struct CommandResult: Sendable {
  package var command: String
  package var elapsedMs: Int = 0
  package var error: AuthError?
  package var user: AuthUser?
  package var session: AuthSession?
  package var reset: String?
  package var inbox: InboxMessage?
  package var status: StatusInfo?
  /// `user …` commands: the accounts looked up (one per address of `user show`, or the one acted on).
  package var lookups: [UserLookup] = []
  /// `user show --jsonl`: how many lookups were printed as they completed (and not kept in `lookups`).
  package var streamedLookups = 0
  /// `user list`.
  package var userPage: UserPage?
  /// `user link`.
  package var link: AdminLink?
  /// `diagnose`.
  package var diagnosis: Diagnosis?
  /// `audit`.
  package var audit: [AuditEntry]?
  /// `user history`: the backend's trail for the account, newest first.
  package var history: [AccountEvent]?
  /// Human notes ("Confirmation e-mail sent", …).
  package var notes: [String] = []
  /// A bulk change (`--from FILE`): its summary (counts by outcome and error code).
  package var batch: JSON?
  /// `user import`: its counts (`import` in `--json`).
  package var importCounts: JSON?
  /// Free text output (`echo`, `help`).
  package var output: String?
  /// `secret list`: the names of the stored secrets (never their values).
  package var secrets: [String]?
  /// `signup`: true when a confirmation mail was sent instead of signing in, false when signed in.
  package var confirmationRequired: Bool?
  /// `mfa list`: the signed-in user's second factors.
  package var factors: [AuthFactor]?
  /// `mfa enroll`: the new factor's URI and secret (secret), and the QR code's lines.
  package var enrollment: TOTPEnrollment?
  package var qrCode: [String]?
  /// Whether human output draws the enrolment's secret, URI and QR code (a person at a terminal,
  /// or `--show-tokens`); otherwise they print as `***`. JSON shows them with `revealTokens` only.
  package var drawsEnrollment = false

  package init(command: String) { self.command = command }

  /// Whether the command succeeded and its answer is a yes: `diagnose` of an account that cannot
  /// sign in is not ok (exit 1, like grep), though the command itself worked.
  package var ok: Bool { error == nil && diagnosis?.canSignIn != false }

  package static func failure(_ command: String, _ error: AuthError) -> CommandResult {
    var result = CommandResult(command: command)
    result.error = error
    return result
  }

  /// Decoded claims of the access token, when signed in.
  package var claims: JSON? { session.flatMap { JWTClaims.decode($0.accessToken) } }

  /// The version of the result model's JSON. Within one version fields are only ever added;
  /// none is removed, renamed or changes type or meaning.
  package static let schemaVersion = 1

  /// The result model as JSON. Tokens, recovery codes and link secrets print as `***` unless
  /// `revealTokens` (`--show-tokens`, or script queries, whose output goes through the redactor).
  /// `claims` only with `includeClaims` (`--claims`, and script queries).
  package func json(now: Int, revealTokens: Bool, includeClaims: Bool = false) -> JSON {
    var object = JSONObject()
    object["schema"] = .int(Self.schemaVersion)
    object["ok"] = .bool(ok)
    object["command"] = .string(command)
    object["elapsed_ms"] = .int(elapsedMs)
    if let error { object["error"] = Self.errorJSON(error) }
    if let user = user ?? session?.user { object["user"] = user.json }
    if let session {
      let mask: (String) -> JSON = { revealTokens ? .string($0) : .string("***") }
      object["session"] = [
        "access_token": mask(session.accessToken), "refresh_token": mask(session.refreshToken),
        "expires_in": .int(session.expiresIn(now: now)), "expires_at": .int(session.expiresAt),
        "token_type": .string(session.tokenType.lowercased()), "aal": .string(session.aal),
        "amr": .array(session.amr.map(JSON.string)),
      ]
      if includeClaims, let claims { object["claims"] = claims }
    }
    if let confirmationRequired { object["confirmation_required"] = .bool(confirmationRequired) }
    if let reset { object["reset"] = ["email": .string(reset)] }
    if let inbox {
      let shown = revealTokens ? inbox : inbox.redacted
      object["inbox"] = [
        "kind": .string(shown.kind), "code": .string(shown.code), "link": .string(shown.link),
        "email": .string(shown.email),
      ]
    }
    if let status {
      object["status"] = [
        "provider": .string(status.provider.rawValue), "profile": .string(status.profile), "url": .string(status.url),
        "signed_in": .bool(status.signedIn), "session_store": .optional(status.sessionStore),
        "session_location": .optional(status.sessionLocation),
        "session_readable": .bool(status.sessionUnreadable == nil),
        "session_unreadable": .optional(status.sessionUnreadable),
      ]
    }
    if command == Self.lookupCommand {
      // One shape whatever the count: `users` always, `user` too when there is exactly one account.
      object["users"] = .array(lookups.map { Self.lookupJSON($0, revealTokens: revealTokens) })
      if let admin = lookups.first?.user, lookups.count == 1 { object["user"] = admin.json(revealTokens: revealTokens) }
    } else {
      if let admin = lookups.first?.user, lookups.count == 1 { object["user"] = admin.json(revealTokens: revealTokens) }
      if lookups.count > 1 || lookups.contains(where: { $0.user == nil }) {
        object["users"] = .array(lookups.map { Self.lookupJSON($0, revealTokens: revealTokens) })
      }
    }
    if let userPage {
      object["users"] = .array(userPage.users.map(\.json))
      object["total"] = userPage.total.map(JSON.int) ?? .null
      object["next_page_token"] = .optional(userPage.nextPageToken)
    }
    if let link {
      object["link"] = [
        "kind": .string(link.kind.rawValue), "email": .string(link.email),
        "url": .string(link.url), "code": .optional(link.code),
      ]
    }
    if let diagnosis { object["diagnosis"] = diagnosis.json }
    if let secrets { object["secrets"] = .array(secrets.map { ["name": .string($0)] }) }
    if let audit { object["audit"] = .array(audit.map(\.json)) }
    if let history { object["history"] = .array(history.map(\.json)) }
    if let factors { object["factors"] = .array(factors.map(\.json)) }
    if let enrollment {
      let shown = revealTokens ? enrollment : enrollment.redacted
      object["enrollment"] = [
        "id": .optional(shown.factorID), "name": .optional(shown.name), "uri": .string(shown.uri),
        "secret": .string(shown.secret),
        "qr_code": qrCode.map { revealTokens ? JSON.array($0.map(JSON.string)) : .string(Redactor.mask) } ?? JSON.null,
      ]
    }
    if let batch { object["batch"] = batch }
    if let importCounts { object["import"] = importCounts }
    if !notes.isEmpty { object["notes"] = .array(notes.map(JSON.string)) }
    if let output { object["output"] = .string(output) }
    return .object(object)
  }

  /// The command whose JSON always has `users` (one entry per address asked).
  package static let lookupCommand = "user show"

  /// One account of `user show`: the user, or the query with its error.
  package static func lookupJSON(_ lookup: UserLookup, revealTokens: Bool = false) -> JSON {
    var object = JSONObject()
    object["query"] = .string(lookup.query)
    object["ok"] = .bool(lookup.user != nil)
    if let user = lookup.user { object["user"] = user.json(revealTokens: revealTokens) }
    if let error = lookup.error { object["error"] = errorJSON(error) }
    return .object(object)
  }

  package static func errorJSON(_ error: AuthError) -> JSON {
    var object = JSONObject()
    object["code"] = .string(error.code.rawValue)
    object["message"] = .string(error.message)
    object["provider_code"] = .optional(error.providerCode)
    object["status"] = error.status.map(JSON.int) ?? .null
    object["retry_after_seconds"] = error.retryAfterSeconds.map(JSON.int) ?? .null
    if !error.fields.isEmpty {
      var fields = JSONObject()
      for field in error.fields {
        fields[field.field.rawValue] = ["code": .string(field.code), "message": .string(field.message)]
      }
      object["fields"] = .object(fields)
    }
    if let hint = error.hint { object["hint"] = .string(hint) }
    return .object(object)
  }
}
