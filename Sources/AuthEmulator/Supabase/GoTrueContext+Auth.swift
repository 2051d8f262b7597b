import Essentials
import HTTPServerKit
import JSONKit
import Synchronization

/// Bearer tokens (`auth.go`): user endpoints need a user access token whose session still
/// exists; admin endpoints need a JWT whose role is an admin role (or the secret key as `apikey`).
extension GoTrueContext {
  static let adminRoles: Set<String> = ["service_role", "supabase_admin"]

  struct Caller {
    var user: SBUser
    var sessionID: String?
    /// The token's `is_anonymous` claim (`requireNotAnonymous`).
    var isAnonymous = false
  }

  /// `(?i)^bearer (\S+$)` (byte-wise: this runs on every authenticated request).
  func bearerToken(_ request: ServerRequest) throws -> String {
    guard let header = request.header("Authorization") else { throw GoTrueError.noAuthorization }
    let bytes = header.utf8
    guard bytes.count > 7 else { throw GoTrueError.noAuthorization }
    let prefix = bytes.prefix(7).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }  // ASCII lower case
    guard prefix.elementsEqual("bearer ".utf8) else { throw GoTrueError.noAuthorization }
    let token = bytes.dropFirst(7)
    guard !token.contains(where: { $0 == 0x20 || (0x09...0x0D).contains($0) }) else {
      throw GoTrueError.noAuthorization
    }
    return String(decoding: token, as: UTF8.self)
  }

  /// The claims of a token signed with the emulator's secret that has not expired.
  func verifiedClaims(_ token: String) throws -> JSON {
    let prefix = "invalid JWT: unable to parse or verify signature, "
    guard token.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count == 2 else {
      throw GoTrueError.forbidden(
        "bad_jwt", prefix + "token is malformed: token contains an invalid number of segments")
    }
    let claims: JSON
    if let cached = verifiedTokens.claims(of: token) {
      claims = cached
    } else {
      guard let verified = EmulatorJWT.verifyHS256(token, secret: config.jwtSecret), verified.object != nil else {
        throw GoTrueError.forbidden("bad_jwt", prefix + "token signature is invalid: signature is invalid")
      }
      verifiedTokens.insert(token, claims: verified)
      claims = verified
    }
    if let exp = claims["exp"]?.double, exp <= Double(now) / 1_000_000 {
      throw GoTrueError.forbidden("bad_jwt", prefix + "token has invalid claims: token is expired")
    }
    return claims
  }

  /// The signed-in user of a user endpoint, with the same checks and errors as GoTrue.
  func authenticate(_ request: ServerRequest) throws -> Caller {
    let claims = try verifiedClaims(try bearerToken(request))
    guard let subject = claims["sub"]?.string, !subject.isEmpty else {
      throw GoTrueError.forbidden("bad_jwt", "invalid claim: missing sub claim")
    }
    let sessionID = claims["session_id"]?.string
    let now = self.now
    return try state.read { data in
      guard let user = data.users[subject.lowercased()] else {
        throw GoTrueError.forbidden("user_not_found", "User from sub claim in JWT does not exist")
      }
      if let sessionID, !sessionID.isEmpty, data.sessions[sessionID] == nil {
        throw GoTrueError.forbidden("session_not_found", "Session from session_id claim in JWT does not exist")
      }
      if user.isBanned(at: now) { throw GoTrueError.forbidden("user_banned", "User is banned") }
      return Caller(user: user, sessionID: sessionID, isAnonymous: claims["is_anonymous"]?.bool ?? false)
    }
  }

  /// Admin endpoints: 401 without a bearer, 403 `bad_jwt` for a bad token, 403 `not_admin` for
  /// any role but `service_role` / `supabase_admin`. Without a bearer, an `apikey` that is the
  /// emulator's secret key stands for the service_role JWT (`SupabaseAPIKeys`).
  /// Returns the admin role (the audit trail's actor).
  @discardableResult
  func requireAdmin(_ request: ServerRequest) throws -> String {
    switch try SupabaseAPIKeys.grant(request) {
    case .serviceRole: return "service_role"
    case .anon: throw GoTrueError.forbidden("not_admin", "User not allowed")
    case .none: break
    }
    let claims = try verifiedClaims(try bearerToken(request))
    guard let role = claims["role"]?.string, Self.adminRoles.contains(role) else {
      throw GoTrueError.forbidden("not_admin", "User not allowed")
    }
    return role
  }
}

/// Claims of tokens whose signature was already checked (each access token is presented many
/// times; the HMAC and JSON work is then done once). Bounded: emptied when full.
final class VerifiedTokenCache: Sendable {
  private let claimsByToken = Mutex<[String: JSON]>([:])
  private let capacity: Int

  init(capacity: Int = 10_000) { self.capacity = capacity }

  func claims(of token: String) -> JSON? { claimsByToken.withLock { $0[token] } }

  func insert(_ token: String, claims: JSON) {
    claimsByToken.withLock { claimsByToken in
      if claimsByToken.count >= capacity { claimsByToken.removeAll(keepingCapacity: true) }
      claimsByToken[token] = claims
    }
  }
}
