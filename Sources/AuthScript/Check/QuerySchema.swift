import AuthCore
import ShellKit

/// The shape of the result model, for checking queries and `{{user.id}}` before a run.
package enum QuerySchema {
  package indirect enum Node: Sendable {
    /// A scalar: no fields below.
    case leaf
    /// Known fields.
    case object([String: Node])
    /// Anything below (decoded claims, arrays).
    case any
  }

  static let fields: Node = .object(["code": .leaf, "message": .leaf])

  package static let root: [String: Node] = [
    "schema": .leaf, "ok": .leaf, "command": .leaf, "confirmation_required": .leaf, "elapsed_ms": .leaf,
    "output": .leaf, "notes": .any,
    "error": .object([
      "code": .leaf, "message": .leaf, "provider_code": .leaf, "status": .leaf, "retry_after_seconds": .leaf,
      "hint": .leaf, "fields": .object(["email": fields, "password": fields, "name": fields, "confirm": fields]),
    ]),
    // The signed-in user (`whoami`, `login`) and the admin view of an account (`user show`, …).
    "user": .object([
      "id": .leaf, "email": .leaf, "email_confirmed": .leaf, "name": .leaf, "created_at": .leaf,
      "last_sign_in_at": .leaf, "provider": .leaf, "provider_id": .leaf, "confirmed": .leaf, "confirmed_at": .leaf,
      "disabled": .leaf, "phone": .leaf,
      "disabled_until": .leaf, "methods": .any, "metadata": .any, "recovery_sent_at": .leaf,
      "confirmation_sent_at": .leaf, "deleted_at": .leaf,
      "invited_at": .leaf, "sso": .leaf, "anonymous": .leaf, "identities": .any, "factors": .any,
      "pending_mail": .object(["kind": .leaf, "code": .leaf, "link": .leaf, "email": .leaf]),
    ]),
    "users": .any, "total": .leaf, "next_page_token": .leaf,
    "link": .object(["kind": .leaf, "email": .leaf, "url": .leaf, "code": .leaf]),
    "diagnosis": .object([
      "email": .leaf, "can_sign_in": .leaf, "findings": .any, "last_sign_in": .leaf, "last_recovery_request": .leaf,
    ]),
    "audit": .any, "history": .any,
    "session": .object([
      "access_token": .leaf, "refresh_token": .leaf, "expires_in": .leaf, "expires_at": .leaf, "token_type": .leaf,
      "aal": .leaf, "amr": .any,
    ]),
    // `mfa list` / `mfa remove`, and `mfa enroll`.
    "factors": .any,
    "enrollment": .object(["id": .leaf, "name": .leaf, "uri": .leaf, "secret": .leaf, "qr_code": .any]),
    "claims": .any,
    "reset": .object(["email": .leaf]),
    "inbox": .object(["kind": .leaf, "code": .leaf, "link": .leaf, "email": .leaf]),
    "status": .object(["provider": .leaf, "profile": .leaf, "url": .leaf, "signed_in": .leaf]),
  ]

  package static var roots: [String] { root.keys.sorted() }

  /// nil when the path fits the model; otherwise what is wrong and a suggestion.
  package static func problem(with segments: [String]) -> (message: String, suggestion: String?)? {
    guard let first = segments.first else { return ("empty query", nil) }
    guard var node = root[first] else {
      return ("unknown query '\(first)'", Suggest.closest(to: first, among: roots))
    }
    var path = first
    for segment in segments.dropFirst() {
      switch node {
      case .any: return nil
      case .leaf: return ("'\(path)' has no fields", nil)
      case .object(let children):
        guard let child = children[segment] else {
          return (
            "unknown field '\(segment)' in '\(path)'", Suggest.closest(to: segment, among: children.keys.sorted())
          )
        }
        node = child
        path += "." + segment
      }
    }
    return nil
  }
}
