import JSONKit

/// A second factor of an account, provider-neutral (result model `user.factors[]`): a Supabase
/// factor (`/factors`, `factors` on a user) or a Firebase MFA enrollment (`mfaInfo[]`).
package struct AuthFactor: Sendable, Equatable, Hashable {
  package enum Kind: String, Sendable, Hashable {
    /// An authenticator app (RFC 6238).
    case totp
    /// A code by SMS.
    case phone
    /// Anything else the backend names (`webauthn`, …), kept as it says.
    case other
  }

  package enum Status: String, Sendable, Hashable {
    /// Usable for sign-in (Firebase enrollments are always verified).
    case verified
    /// Enrolled but never confirmed with a first code (Supabase).
    case unverified
  }

  /// Supabase factor id or Firebase `mfaEnrollmentId`.
  package var id: String
  package var kind: Kind
  /// The name given at enrolment (`friendly_name`, `displayName`), if any.
  package var name: String?
  package var status: Status
  /// ISO 8601 (UTC), nil when the backend did not say.
  package var createdAt: String?

  package init(id: String, kind: Kind, name: String? = nil, status: Status = .verified, createdAt: String? = nil) {
    self.id = id
    self.kind = kind
    self.name = name
    self.status = status
    self.createdAt = createdAt
  }

  package var json: JSON {
    [
      "id": .string(id), "kind": .string(kind.rawValue), "name": .optional(name), "status": .string(status.rawValue),
      "created_at": .optional(createdAt),
    ]
  }

  package init?(json: JSON) {
    guard let id = json["id"]?.string else { return nil }
    self.init(
      id: id, kind: json["kind"]?.string.flatMap(Kind.init(rawValue:)) ?? .other, name: json["name"]?.string,
      status: json["status"]?.string.flatMap(Status.init(rawValue:)) ?? .verified, createdAt: json["created_at"]?.string
    )
  }

  /// How a person refers to it: its name, else its id.
  package var label: String { name.flatMap { $0.isEmpty ? nil : $0 } ?? id }

  /// Whether `text` names this factor (its id, or its name ignoring case).
  package func matches(_ text: String) -> Bool {
    id == text || (name.map { $0.lowercased() == text.lowercased() } ?? false)
  }
}

extension Array where Element == AuthFactor {
  /// The factor `text` names: the one with that id, else the one with that name (ignoring case);
  /// nil when none does. A name two factors share is refused (a usage error listing their ids):
  /// taking the first would remove, or answer with, a factor the person did not mean.
  package func factor(named text: String) throws -> AuthFactor? {
    if let byId = first(where: { $0.id == text }) { return byId }
    let named = filter { $0.matches(text) }
    guard named.count <= 1 else {
      throw AuthError(
        .usage,
        message: "\(named.count) factors are named \(text): give the id (\(named.map(\.id).joined(separator: ", "))).")
    }
    return named.first
  }
}
