import JSONKit

/// `diagnose EMAIL`: why a person cannot sign in, from the admin view alone (result model
/// `diagnosis.*`). Findings are in the order support should read them.
package struct Diagnosis: Sendable, Equatable {
  package struct Finding: Sendable, Equatable {
    /// Stable: `no_account`, `password_sign_in_disabled`, `soft_deleted`, `anonymous`, `sso_user`,
    /// `invite_pending`, `email_link_only`, `no_password`, `email_unconfirmed`, `disabled`,
    /// `mfa_enrolled`, `totp_off`, `recovery_pending`, `resend_window_closed`, `ok`.
    package var code: String
    package var message: String
    /// The command that fixes it (`authsh user confirm ada@example.com`), when one does.
    package var fix: String?
    /// Stops a password sign-in (false for notes such as a pending recovery mail).
    package var blocking: Bool

    package init(code: String, message: String, fix: String? = nil, blocking: Bool = true) {
      self.code = code
      self.message = message
      self.fix = fix
      self.blocking = blocking
    }

    package var json: JSON {
      ["code": .string(code), "message": .string(message), "fix": .optional(fix), "blocking": .bool(blocking)]
    }
  }

  package var email: String
  package var findings: [Finding]
  /// True when nothing stands in the way of a password sign-in.
  package var canSignIn: Bool
  /// From the backend's audit trail (Supabase), when it has them: the last sign-in and the last
  /// password-recovery request.
  package var lastSignIn: String?
  package var lastRecoveryRequest: String?

  package init(email: String, findings: [Finding], canSignIn: Bool) {
    self.email = email
    self.findings = findings
    self.canSignIn = canSignIn
  }

  package var json: JSON {
    [
      "email": .string(email), "can_sign_in": .bool(canSignIn), "findings": .array(findings.map(\.json)),
      "last_sign_in": .optional(lastSignIn), "last_recovery_request": .optional(lastRecoveryRequest),
    ]
  }
}

/// One line of `$XDG_STATE_HOME/authsh/audit.jsonl`: a mutating admin command. Never a secret.
package struct AuditEntry: Sendable, Equatable {
  /// ISO 8601 (UTC).
  package var time: String
  package var profile: String
  package var backend: String
  /// `user disable`.
  package var command: String
  package var targetId: String?
  package var targetEmail: String?
  /// `started` (the line written before the change is sent), `ok` or the error code.
  package var outcome: String
  /// Who ran it: the OS user and host (`ada@laptop`); nil in lines written before it was kept.
  package var operatorName: String?
  /// What the outcome means for the account, when that is unsure ("may have been applied").
  package var note: String?

  package init(
    time: String, profile: String, backend: String, command: String, targetId: String?, targetEmail: String?,
    outcome: String,
    operatorName: String? = nil, note: String? = nil
  ) {
    self.time = time
    self.profile = profile
    self.backend = backend
    self.command = command
    self.targetId = targetId
    self.targetEmail = targetEmail
    self.outcome = outcome
    self.operatorName = operatorName
    self.note = note
  }

  /// Whether the entry is about the account named by `query` (its e-mail address, case-insensitive, or its id).
  package func concerns(_ query: String) -> Bool {
    let wanted = query.trimmingWhitespace.lowercased()
    return targetEmail?.lowercased() == wanted || targetId?.lowercased() == wanted
  }

  package var json: JSON {
    var object = JSONObject()
    for (key, value) in [
      ("time", JSON.string(time)), ("profile", .string(profile)), ("backend", .string(backend)),
      ("command", .string(command)),
      ("target_id", .optional(targetId)), ("target_email", .optional(targetEmail)), ("outcome", .string(outcome)),
      ("operator", .optional(operatorName)),
    ] {
      object[key] = value
    }
    if let note { object["note"] = .string(note) }
    return .object(object)
  }

  /// `{"time":…,"profile":…,"backend":…,"command":…`: the part the lines of one batch share. With
  /// `writeTail` it is the entry as a line of the log, the bytes of `json.compactText` and a newline,
  /// written without building the object first (an import writes one per account).
  package func writeHead(to out: inout [UInt8]) {
    Self.field("time", time, first: true, to: &out)
    Self.field("profile", profile, to: &out)
    Self.field("backend", backend, to: &out)
    Self.field("command", command, to: &out)
  }

  /// The rest of the line after `writeHead`: `,"target_id":…}` and the newline.
  package func writeTail(to out: inout [UInt8]) {
    Self.field("target_id", targetId, to: &out)
    Self.field("target_email", targetEmail, to: &out)
    Self.field("outcome", outcome, to: &out)
    Self.field("operator", operatorName, to: &out)
    if let note { Self.field("note", note, to: &out) }
    Self.append("}\n", to: &out)
  }

  /// A literal's bytes, appended as one buffer (a `String.UTF8View` goes a byte at a time).
  private static func append(_ text: StaticString, to out: inout [UInt8]) {
    text.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  /// Whether `other`'s head (`writeHead`) is this entry's.
  package func sharesHead(with other: AuditEntry) -> Bool {
    time == other.time && profile == other.profile && backend == other.backend && command == other.command
  }

  private static func field(_ key: StaticString, _ value: String?, first: Bool = false, to out: inout [UInt8]) {
    out.append(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
    out.append(UInt8(ascii: "\""))
    append(key, to: &out)
    append("\":", to: &out)
    if let value { JSON.writeString(value, to: &out) } else { append("null", to: &out) }
  }

  package init?(json: JSON) {
    guard let time = json["time"]?.string, let command = json["command"]?.string else { return nil }
    self.init(
      time: time, profile: json["profile"]?.string ?? "", backend: json["backend"]?.string ?? "", command: command,
      targetId: json["target_id"]?.string, targetEmail: json["target_email"]?.string,
      outcome: json["outcome"]?.string ?? "", operatorName: json["operator"]?.string, note: json["note"]?.string)
  }
}
