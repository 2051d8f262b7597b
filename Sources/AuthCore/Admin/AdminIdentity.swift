import JSONKit

/// One way in that the backend lists for an account (result model `user.identities[]`): a
/// Supabase identity or a Firebase `providerUserInfo` entry, with the neutral provider name
/// (`password`, `google`, `github`, `apple`, `phone`, `sso:…`, `saml.…`).
package struct AdminIdentity: Sendable, Equatable, Hashable {
  package var provider: String
  /// The provider's subject (Google's account number, the e-mail for `password`), if given.
  package var subject: String?
  package var email: String?
  /// ISO 8601 (UTC), nil when the backend did not say (Firebase never does).
  package var createdAt: String?
  package var lastSignInAt: String?

  package init(
    provider: String, subject: String? = nil, email: String? = nil, createdAt: String? = nil,
    lastSignInAt: String? = nil
  ) {
    self.provider = provider
    self.subject = subject
    self.email = email
    self.createdAt = createdAt
    self.lastSignInAt = lastSignInAt
  }

  package var json: JSON {
    [
      "provider": .string(provider), "subject": .optional(subject), "email": .optional(email),
      "created_at": .optional(createdAt), "last_sign_in_at": .optional(lastSignInAt),
    ]
  }
}

/// One entry of the backend's own trail for an account (`user history`, result model
/// `history[]`): GoTrue's `/admin/audit`.
package struct AccountEvent: Sendable, Equatable {
  /// ISO 8601 (UTC).
  package var time: String
  /// GoTrue's action: `login`, `user_recovery_requested`, `user_updated_password`, `token_revoked`, …
  package var action: String
  /// `account`, `token`, `user`, `factor`, … (GoTrue's `log_type`).
  package var type: String?
  /// Who did it: the account's e-mail, or the admin / service that acted on it.
  package var actor: String?
  package var ipAddress: String?
  package var traits: JSON?

  package init(
    time: String, action: String, type: String? = nil, actor: String? = nil, ipAddress: String? = nil,
    traits: JSON? = nil
  ) {
    self.time = time
    self.action = action
    self.type = type
    self.actor = actor
    self.ipAddress = ipAddress
    self.traits = traits
  }

  package var json: JSON {
    [
      "time": .string(time), "action": .string(action), "type": .optional(type), "actor": .optional(actor),
      "ip_address": .optional(ipAddress), "traits": traits ?? .null,
    ]
  }
}
