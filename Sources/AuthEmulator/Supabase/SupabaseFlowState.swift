import Crypto
import Essentials
import JSONKit

/// GoTrue's `flow_state` row of a PKCE flow (`models/flow_state.go`): the challenge a client
/// sent with its request for a mail, and the auth code that `/verify` hands out instead of a
/// session. `POST /token?grant_type=pkce` trades the code and the verifier for the session.
struct SBFlowState: Sendable {
  var id: String
  var userID: String
  var authCode: String
  /// `authentication_method`: `recovery`, `magiclink`, `email/signup`, `invite`, `email_change`.
  var authenticationMethod: String
  var providerType: String
  var codeChallenge: String
  /// `s256` or `plain`, lowercase as GoTrue stores it.
  var codeChallengeMethod: String
  var createdAt: Micros
  var authCodeIssuedAt: Micros?

  /// GoTrue's `External.FlowStateExpiryDuration` default (and minimum).
  static let lifetime: Micros = 300 * 1_000_000

  /// `IsExpired`: a magic link counts from when `/verify` issued its code, any other flow from
  /// when it was created (so a recovery link followed after five minutes cannot be exchanged).
  func isExpired(at now: Micros) -> Bool {
    if let issued = authCodeIssuedAt, authenticationMethod == "magiclink" { return now > issued + Self.lifetime }
    return now > createdAt + Self.lifetime
  }

  /// `security.VerifyPKCEChallenge`, with its messages.
  func verify(_ verifier: String) -> String? {
    switch codeChallengeMethod.lowercased() {
    case "s256":
      let hashed = Base64URL.encode(SHA256.hash(data: Array(verifier.utf8)))
      return ConstantTime.equal(codeChallenge, hashed) ? nil : Self.mismatch
    case "plain":
      return ConstantTime.equal(codeChallenge, verifier) ? nil : Self.mismatch
    default:
      return "code challenge method not supported"
    }
  }

  private static let mismatch = "code challenge does not match previously saved code verifier"

  var document: JSON {
    [
      "id": .string(id), "user_id": .string(userID), "auth_code": .string(authCode),
      "authentication_method": .string(authenticationMethod), "provider_type": .string(providerType),
      "code_challenge": .string(codeChallenge), "code_challenge_method": .string(codeChallengeMethod),
      "created_at": micros(createdAt), "auth_code_issued_at": micros(authCodeIssuedAt),
    ]
  }

  init(
    id: String, userID: String, authCode: String, authenticationMethod: String, providerType: String,
    codeChallenge: String, codeChallengeMethod: String, createdAt: Micros, authCodeIssuedAt: Micros? = nil
  ) {
    self.id = id
    self.userID = userID
    self.authCode = authCode
    self.authenticationMethod = authenticationMethod
    self.providerType = providerType
    self.codeChallenge = codeChallenge
    self.codeChallengeMethod = codeChallengeMethod
    self.createdAt = createdAt
    self.authCodeIssuedAt = authCodeIssuedAt
  }

  init?(document json: JSON) {
    guard let id = json["id"]?.string, let userID = json["user_id"]?.string, let authCode = json["auth_code"]?.string,
      let method = json["authentication_method"]?.string, let challenge = json["code_challenge"]?.string,
      let challengeMethod = json["code_challenge_method"]?.string, let createdAt = micros(json["created_at"])
    else { return nil }
    self.init(
      id: id, userID: userID, authCode: authCode, authenticationMethod: method,
      providerType: json["provider_type"]?.string ?? "", codeChallenge: challenge,
      codeChallengeMethod: challengeMethod, createdAt: createdAt, authCodeIssuedAt: micros(json["auth_code_issued_at"]))
  }
}

/// The PKCE parameters of a request (`code_challenge`, `code_challenge_method`), checked as
/// `validatePKCEParams` checks them: both or neither, the challenge 43–128 characters of
/// `[A-Za-z0-9._~-]` (RFC 7636 §4.2).
struct PKCEChallenge: Sendable {
  var challenge: String
  var method: String

  static let invalidPair = "PKCE flow requires code_challenge_method and code_challenge"

  /// nil when the request carries neither (the implicit flow).
  static func parse(challenge: String, method: String) throws -> PKCEChallenge? {
    if challenge.isEmpty != method.isEmpty { throw GoTrueError.validation(invalidPair) }
    if challenge.isEmpty { return nil }
    guard (43...128).contains(challenge.utf8.count) else {
      throw GoTrueError.validation("code challenge has to be between 43 and 128 characters")
    }
    let allowed = challenge.utf8.allSatisfy { byte in
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        || byte == 0x2E || byte == 0x5F || byte == 0x7E || byte == 0x2D
    }
    guard allowed else {
      throw GoTrueError.validation(
        "code challenge can only contain alphanumeric characters, hyphens, periods, underscores and tildes")
    }
    return PKCEChallenge(challenge: challenge, method: method)
  }

  static func parse(_ params: RequestParams) throws -> PKCEChallenge? {
    try parse(challenge: params.string("code_challenge"), method: params.string("code_challenge_method"))
  }
}
