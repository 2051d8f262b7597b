import JSONKit

/// A second factor (`internal/models/factor.go`): TOTP only here. `unverified` until its first
/// successful verify. The secret is kept in clear (GoTrue may encrypt it at rest).
struct SBFactor: Sendable {
  var id: String
  var friendlyName: String
  var factorType = "totp"
  var status: String
  var secret: String
  var createdAt: Micros
  var updatedAt: Micros
  var lastChallengedAt: Micros?
  /// Open and used challenges (`mfa_challenges`); expired ones are dropped when a new one is made.
  var challenges: [SBChallenge] = []

  static let verified = "verified"
  static let unverified = "unverified"

  var isVerified: Bool { status == Self.verified }

  /// Go struct order of `models.Factor`: `friendly_name` omitted when empty, `phone` always a
  /// string, `last_challenged_at` null until the first challenge.
  var wire: JSON {
    var object = JSONObject()
    object["id"] = .string(id)
    object["created_at"] = .string(GoTime.format(createdAt))
    object["updated_at"] = .string(GoTime.format(updatedAt))
    object["status"] = .string(status)
    if !friendlyName.isEmpty { object["friendly_name"] = .string(friendlyName) }
    object["factor_type"] = .string(factorType)
    object["phone"] = ""
    object["last_challenged_at"] = lastChallengedAt.map { .string(GoTime.format($0)) } ?? .null
    return .object(object)
  }

  var document: JSON {
    [
      "id": .string(id), "friendly_name": .string(friendlyName), "factor_type": .string(factorType),
      "status": .string(status), "secret": .string(secret), "created_at": micros(createdAt),
      "updated_at": micros(updatedAt), "last_challenged_at": micros(lastChallengedAt),
      "challenges": .array(challenges.map(\.document)),
    ]
  }

  init(id: String, friendlyName: String, status: String, secret: String, createdAt: Micros) {
    self.id = id
    self.friendlyName = friendlyName
    self.status = status
    self.secret = secret
    self.createdAt = createdAt
    self.updatedAt = createdAt
  }

  init?(document json: JSON) {
    guard let id = json["id"]?.string, let status = json["status"]?.string, let secret = json["secret"]?.string,
      let createdAt = micros(json["created_at"]), let updatedAt = micros(json["updated_at"])
    else { return nil }
    self.init(
      id: id, friendlyName: json["friendly_name"]?.string ?? "", status: status, secret: secret,
      createdAt: createdAt)
    self.updatedAt = updatedAt
    factorType = json["factor_type"]?.string ?? "totp"
    lastChallengedAt = micros(json["last_challenged_at"])
    challenges = (json["challenges"]?.array ?? []).compactMap(SBChallenge.init(document:))
  }
}

/// An MFA challenge (`internal/models/challenge.go`): valid for `MFA_CHALLENGE_EXPIRY_DURATION`,
/// from the address that made it, once.
struct SBChallenge: Sendable {
  var id: String
  var createdAt: Micros
  var verifiedAt: Micros?
  var ipAddress: String

  var document: JSON {
    [
      "id": .string(id), "created_at": micros(createdAt), "verified_at": micros(verifiedAt),
      "ip_address": .string(ipAddress),
    ]
  }

  init(id: String, createdAt: Micros, ipAddress: String) {
    self.id = id
    self.createdAt = createdAt
    self.ipAddress = ipAddress
  }

  init?(document json: JSON) {
    guard let id = json["id"]?.string, let createdAt = micros(json["created_at"]) else { return nil }
    self.init(id: id, createdAt: createdAt, ipAddress: json["ip_address"]?.string ?? "")
    verifiedAt = micros(json["verified_at"])
  }
}

extension SBSession {
  /// GoTrue's `CalculateAALAndAMR`: aal2 once a second-factor method is among the session's claims.
  static let secondFactorMethods: Set<String> = ["totp", "mfa/phone", "mfa/webauthn"]

  var computedAAL: String { amr.contains { Self.secondFactorMethods.contains($0.method) } ? "aal2" : "aal1" }

  /// `AddClaimToSession`: one claim per method; signing in with it again moves its time.
  mutating func addClaim(_ method: String, at now: Micros) {
    let seconds = Int(now / 1_000_000)
    if let index = amr.firstIndex(where: { $0.method == method }) {
      amr[index].timestamp = seconds
    } else {
      amr.append(SBAuthMethod(method: method, timestamp: seconds))
    }
  }

  /// The `amr` claim: most recent first (within one second, the one added last first).
  var amrClaim: JSON {
    let ordered = amr.enumerated().sorted { ($0.element.timestamp, $0.offset) > ($1.element.timestamp, $1.offset) }
    return .array(ordered.map { ["method": .string($0.element.method), "timestamp": .int($0.element.timestamp)] })
  }
}
