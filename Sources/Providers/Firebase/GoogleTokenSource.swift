import AuthCore
import Essentials
import JSONKit

/// Google OAuth access tokens for an admin credential — a service account (JWT-bearer grant), a
/// user's Application Default Credentials (refresh-token grant) or an impersonated service account
/// (IAM Credentials) — one exchange per process, cached in memory until shortly before expiry;
/// concurrent callers wait for the same exchange. Every secret (private key, client secret,
/// refresh token, assertion, access token) is handed to `secrets` (the redactor) before it could
/// appear anywhere.
package final class GoogleTokenSource: AccessTokenSource, Sendable {
  /// How the access token is obtained.
  package enum Grant: Sendable, Equatable {
    case serviceAccount(ServiceAccount)
    case authorizedUser(AuthorizedUser)
    case impersonated(ImpersonatedServiceAccount)

    /// The credential behind `credential`, when it is a Google one.
    package init?(_ credential: AdminCredential) {
      switch credential {
      case .firebaseServiceAccount(let account): self = .serviceAccount(account)
      case .firebaseAuthorizedUser(let user): self = .authorizedUser(user)
      case .firebaseImpersonated(let impersonated): self = .impersonated(impersonated)
      default: return nil
      }
    }

    /// One source per credential in a process.
    var cacheKey: String {
      switch self {
      case .serviceAccount(let a):
        return ["sa", a.clientEmail, a.privateKeyId, a.tokenURI, a.privateKeyPEM].joined(separator: "\u{0}")
      case .authorizedUser(let u): return ["user", u.clientId, u.tokenURI, u.refreshToken].joined(separator: "\u{0}")
      case .impersonated(let i):
        return ["imp", i.impersonationURL, i.path, i.delegates.joined(separator: ",")].joined(separator: "\u{0}")
      }
    }

    /// Who the calls go out as, for messages.
    package var principal: String {
      switch self {
      case .serviceAccount(let account): return "the service account \(account.clientEmail)"
      case .authorizedUser(let user): return "the user credentials in \(user.path)"
      case .impersonated(let impersonated): return "the service account \(impersonated.targetPrincipal) (impersonated)"
      }
    }

    /// The project billed for the calls (`X-Goog-User-Project`), for user credentials.
    var quotaProject: String? {
      switch self {
      case .serviceAccount: return nil
      case .authorizedUser(let user): return user.quotaProjectId
      case .impersonated(let impersonated): return impersonated.quotaProjectId
      }
    }
  }

  /// A token is renewed this long before it expires (or at half its life when that is shorter).
  static let renewalMargin: TimeInterval = 60
  /// A refusal (revoked key, clock skew, an unusable answer) is repeated without asking again for this long.
  static let refusalMemory: TimeInterval = 30

  struct Token {
    var value: String
    var renewAt: Date
  }

  enum State {
    case idle
    case exchanging(Task<Token, any Error>)
    case ready(Token)
    case refused(AuthError, until: Date)
  }

  /// What changes after `init`: the token's state, and the latest caller's settings.
  private struct Mutable {
    var state = State.idle
    var timeout: Double
    var trace: (@Sendable (String) -> Void)?
    var secrets: (@Sendable (String) -> Void)?
    var exchanges = 0
  }

  package let grant: Grant
  private let transport: any HTTPTransport
  private let clock: any Clock
  private let mutable: Guarded<Mutable>

  package init(
    grant: Grant, transport: any HTTPTransport, clock: any Clock, timeout: Double = 30,
    trace: (@Sendable (String) -> Void)? = nil, secrets: (@Sendable (String) -> Void)? = nil
  ) {
    self.grant = grant
    self.transport = transport
    self.clock = clock
    mutable = Guarded(Mutable(timeout: timeout, trace: trace, secrets: secrets))
  }

  package convenience init(
    account: ServiceAccount, transport: any HTTPTransport, clock: any Clock, timeout: Double = 30,
    trace: (@Sendable (String) -> Void)? = nil, secrets: (@Sendable (String) -> Void)? = nil
  ) {
    self.init(
      grant: .serviceAccount(account), transport: transport, clock: clock, timeout: timeout, trace: trace,
      secrets: secrets)
  }

  private static let registry = Guarded<[String: GoogleTokenSource]>([:])

  /// The process's one source for `grant`: the latest caller's timeout, trace and secret sink are
  /// used for later exchanges.
  package static func shared(
    for grant: Grant, transport: any HTTPTransport, clock: any Clock, timeout: Double = 30,
    trace: (@Sendable (String) -> Void)?, secrets: (@Sendable (String) -> Void)? = nil
  ) -> GoogleTokenSource {
    let source = registry.update { registry in
      if let existing = registry[grant.cacheKey] { return existing }
      let made = GoogleTokenSource(grant: grant, transport: transport, clock: clock, timeout: timeout)
      registry[grant.cacheKey] = made
      return made
    }
    source.mutable.update { mutable in
      mutable.trace = trace
      mutable.timeout = timeout
      if let secrets { mutable.secrets = secrets }
    }
    return source
  }

  package static func shared(
    for account: ServiceAccount, transport: any HTTPTransport, clock: any Clock, timeout: Double = 30,
    trace: (@Sendable (String) -> Void)?, secrets: (@Sendable (String) -> Void)? = nil
  ) -> GoogleTokenSource {
    shared(
      for: .serviceAccount(account), transport: transport, clock: clock, timeout: timeout, trace: trace,
      secrets: secrets)
  }

  /// How many exchanges this source has made (for tests and `--verbose`).
  package var exchangeCount: Int { mutable[\.exchanges] }

  package var quotaProject: String? { grant.quotaProject }

  package func accessToken() async throws -> String {
    enum Next {
      case cached(String)
      case wait(Task<Token, any Error>)
    }
    let next: Next = try mutable.update { mutable throws(AuthError) in
      let now = clock.now()
      switch mutable.state {
      case .ready(let token) where now < token.renewAt:
        return .cached(token.value)
      case .refused(let error, let until) where now < until:
        throw error
      case .exchanging(let running):
        return .wait(running)
      default:
        mutable.exchanges += 1
        let running = Task { try await self.exchangeAndRemember() }
        mutable.state = .exchanging(running)
        return .wait(running)
      }
    }
    switch next {
    case .cached(let token): return token
    case .wait(let running): return try await running.value.value
    }
  }

  private func exchangeAndRemember() async throws -> Token {
    do {
      let token = try await exchange()
      mutable[\.state] = .ready(token)
      return token
    } catch let error as AuthError where error.code == .configError || error.code == .malformedResponse {
      // Asking again at once would get the same answer: every call of a long command (200 lookups)
      // would make its own exchange.
      mutable[\.state] = .refused(error, until: clock.now().addingTimeInterval(Self.refusalMemory))
      throw error
    } catch {
      mutable[\.state] = .idle
      throw error
    }
  }

  /// What one exchange needs, read under the lock.
  struct Context {
    var transport: any HTTPTransport
    var clock: any Clock
    var timeout: Double
    var trace: (@Sendable (String) -> Void)?
    var secrets: (@Sendable (String) -> Void)?

    func client() -> WireClient {
      WireClient(transport: transport, timeout: timeout, allowInsecureHTTP: false, trace: trace)
    }
    func secret(_ value: String) { secrets?(value) }
  }

  func exchange() async throws -> Token {
    let context = mutable.update { mutable in
      Context(
        transport: transport, clock: clock, timeout: mutable.timeout, trace: mutable.trace, secrets: mutable.secrets)
    }
    switch grant {
    case .serviceAccount(let account):
      return try await Self.jwtBearer(account, scopes: ServiceAccountAssertion.scopes, context)
    case .authorizedUser(let user): return try await Self.refreshTokenGrant(user, context)
    case .impersonated(let impersonated): return try await Self.impersonate(impersonated, context)
    }
  }
}
