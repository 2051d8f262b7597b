extension Diagnosis {
  /// The findings about how the account signs in, beside a password: soft-deleted, anonymous,
  /// SSO, an invite never accepted, e-mail links only, no password at all. At most one of them
  /// (the most specific), since each explains why a password sign-in fails.
  static func wayInFinding(_ user: AdminUser, quoted: String) -> Finding? {
    if let deletedAt = user.deletedAt {
      return Finding(
        code: "soft_deleted",
        message:
          "The account was deleted at \(deletedAt) (a soft delete: the row stays, its e-mail address is freed). It cannot sign in again; the person can sign up anew with the same address."
      )
    }
    if user.anonymous {
      return Finding(
        code: "anonymous",
        message:
          "An anonymous account: no e-mail and no password, it lives only in the session of the device that made it. Once that session is gone nobody can sign in to it; the app can link an e-mail address while it is signed in."
      )
    }
    if user.sso {
      let through = user.methods.first { $0.hasPrefix("sso") || $0.hasPrefix("saml.") || $0.hasPrefix("oidc.") }
      return Finding(
        code: "sso_user",
        message:
          "The account signs in through the organisation's identity provider (SSO\(through.map { ": \($0)" } ?? "")), which manages it; a password sign-in never finds it. Ask them to use the SSO button; their IdP administrator resets access."
      )
    }
    if user.invitePending {
      return Finding(
        code: "invite_pending",
        message:
          "Invited at \(user.invitedAt ?? "?") and never accepted: the account has no password until the invite link is followed.",
        fix: "authsh user link invite \(quoted)")
    }
    if user.emailLinkOnly {
      return Finding(
        code: "email_link_only",
        message:
          "The account signs in with e-mail links only and has no password. Ask them to use \"e-mail me a sign-in link\", or hand over a recovery link to set a password.",
        fix: "authsh user link recovery \(quoted)")
    }
    if !user.hasPassword {
      let others = user.methods.filter { $0 != "password" }
      let message: String
      if others.isEmpty {
        message =
          "The account has no password and no other way to sign in (it was created without one). Hand over a recovery link to set a password."
      } else {
        let names = others.map(Self.displayName).joined(separator: ", ")
        message =
          "The account has no password: it signed up with \(names). Ask them to use that button, or hand over a recovery link to set a password."
      }
      return Finding(code: "no_password", message: message, fix: "authsh user link recovery \(quoted)")
    }
    return nil
  }

  /// "lost my phone": a second factor is asked for after the password (not blocking).
  static func factorFinding(_ user: AdminUser, quoted: String) -> Finding? {
    let verified = user.verifiedFactors
    guard !verified.isEmpty else { return nil }
    let names = verified.map { factor in factor.kind.rawValue + (factor.name.map { " \"\($0)\"" } ?? "") }
    let count = verified.count == 1 ? "a second factor" : "\(verified.count) second factors"
    return Finding(
      code: "mfa_enrolled",
      message:
        "The account has \(count) (\(names.joined(separator: ", "))): after the password they need their authenticator app. If it is lost, remove the factor and they can enrol a new one.",
      fix: "authsh user mfa reset \(quoted)", blocking: false)
  }

  /// `google` → `Google`, `github` → `GitHub`; other names as they are.
  static func displayName(_ method: String) -> String {
    switch method {
    case "google": return "Google"
    case "github": return "GitHub"
    case "apple": return "Apple"
    case "facebook": return "Facebook"
    case "twitter": return "Twitter"
    case "microsoft", "azure": return "Microsoft"
    case "phone": return "a phone number"
    case "email_link": return "e-mail links"
    default: return method
    }
  }
}
