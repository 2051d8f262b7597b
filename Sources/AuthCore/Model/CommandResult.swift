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

/// What one command produced: the envelope (its name, time, error, notes and text) around its
/// typed output, shared by `--json`, assertions and reports.
package struct CommandResult: Sendable {
  package var command: String
  package var elapsedMs: Int = 0
  package var error: AuthError?
  /// The command's own output (nil: only the envelope, e.g. `logout`, `echo`).
  package var payload: (any CommandOutput)?
  /// Human notes ("Confirmation e-mail sent", …).
  package var notes: [String] = []
  /// Free text output (`echo`, `help`, `user import`'s summary).
  package var output: String?

  package init(command: String) { self.command = command }

  /// Whether the command succeeded and its answer is a yes: `diagnose` of an account that cannot
  /// sign in is not ok (exit 1, like grep), though the command itself worked.
  package var ok: Bool { error == nil && payload?.isYes != false }

  /// The output, when it is of type `Output`.
  package func payload<Output: CommandOutput>(as type: Output.Type) -> Output? { payload as? Output }

  /// The session the output carries (its tokens are registered with the redactor).
  package var session: AuthSession? { payload?.session }

  /// The accounts the output looked up or acted on.
  package var lookups: [UserLookup] { payload?.lookups ?? [] }

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
    payload?.write(to: &object, OutputShown(now: now, revealTokens: revealTokens, includeClaims: includeClaims))
    if !notes.isEmpty { object["notes"] = .array(notes.map(JSON.string)) }
    if let output { object["output"] = .string(output) }
    return .object(object)
  }

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
