import AuthCore
import Foundation
import JSONKit

/// Google OAuth access tokens for a service account (OAuth 2.0 JWT-bearer grant): one exchange per
/// process, cached in memory until 60 s before expiry; concurrent callers wait for the same
/// exchange. The private key, the assertion and the access token are handed to `secrets` (the
/// redactor) before they could appear anywhere.
public final class ServiceAccountTokenSource: AccessTokenSource, @unchecked Sendable {
  /// A token is renewed this long before it expires.
  static let renewalMargin: TimeInterval = 60
  /// A refusal (revoked key, clock skew) is repeated without asking again for this long.
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

  let account: ServiceAccount
  private let lock = NSLock()
  private var state = State.idle
  private var transport: any HTTPTransport
  private var clock: any Clock
  private var trace: (@Sendable (String) -> Void)?
  private var secrets: (@Sendable (String) -> Void)?
  private var exchanges = 0

  public init(
    account: ServiceAccount, transport: any HTTPTransport, clock: any Clock, trace: (@Sendable (String) -> Void)? = nil,
    secrets: (@Sendable (String) -> Void)? = nil
  ) {
    self.account = account
    self.transport = transport
    self.clock = clock
    self.trace = trace
    self.secrets = secrets
  }

  private static let registryLock = NSLock()
  nonisolated(unsafe) private static var registry: [String: ServiceAccountTokenSource] = [:]

  /// The process's one source for `account` (same key id, e-mail and token endpoint): the latest
  /// caller's trace and secret sink are used for later exchanges.
  public static func shared(
    for account: ServiceAccount, transport: any HTTPTransport, clock: any Clock, trace: (@Sendable (String) -> Void)?,
    secrets: (@Sendable (String) -> Void)? = nil
  ) -> ServiceAccountTokenSource {
    let id = [account.clientEmail, account.privateKeyId, account.tokenURI, account.privateKeyPEM].joined(separator: "\u{0}")
    let source = registryLock.withLock {
      if let existing = registry[id] { return existing }
      let made = ServiceAccountTokenSource(account: account, transport: transport, clock: clock)
      registry[id] = made
      return made
    }
    source.lock.withLock {
      source.trace = trace
      if let secrets { source.secrets = secrets }
    }
    return source
  }

  /// How many exchanges this source has made (for tests and `--verbose`).
  public var exchangeCount: Int { lock.withLock { exchanges } }

  public func accessToken() async throws -> String {
    enum Next {
      case cached(String)
      case wait(Task<Token, any Error>)
    }
    let next: Next = try lock.withLock {
      let now = clock.now()
      switch state {
      case .ready(let token) where now < token.renewAt:
        return .cached(token.value)
      case .refused(let error, let until) where now < until:
        throw error
      case .exchanging(let running):
        return .wait(running)
      default:
        exchanges += 1
        let running = Task { try await self.exchangeAndRemember() }
        state = .exchanging(running)
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
      lock.withLock { state = .ready(token) }
      return token
    } catch let error as AuthError where error.code == .configError {
      lock.withLock { state = .refused(error, until: clock.now().addingTimeInterval(Self.refusalMemory)) }
      throw error
    } catch {
      lock.withLock { state = .idle }
      throw error
    }
  }

  /// One JWT-bearer exchange against the file's `token_uri`.
  func exchange() async throws -> Token {
    let (transport, clock, trace, secrets) = lock.withLock { (self.transport, self.clock, self.trace, self.secrets) }
    secrets?(account.privateKeyPEM)
    guard let url = URL(string: account.tokenURI), url.host != nil else {
      throw AuthError(
        .configError, message: "The token_uri of the service-account file \(account.path) is not a URL.",
        hint: "Download the key again, or fix token_uri (normally \(ServiceAccountFile.defaultTokenURI)).")
    }
    let assertion = try ServiceAccountAssertion(account: account).signed(now: clock.now())
    secrets?(assertion)
    let body = "grant_type=" + FormEncoding.encode("urn:ietf:params:oauth:grant-type:jwt-bearer") + "&assertion=" + assertion
    let client = WireClient(transport: transport, timeout: 30, allowInsecureHTTP: false, trace: trace)
    let response = try await client.send(
      "POST", url, headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json")],
      body: Array(body.utf8))
    guard response.status == 200 else { throw TokenEndpointErrors.map(response, account: account) }
    let json = try WireBody.json(response)
    guard let token = json["access_token"]?.string, !token.isEmpty else {
      throw WireBody.missing("access_token", in: response)
    }
    secrets?(token)
    let lifetime = TimeInterval(json["expires_in"]?.intOrNumericString ?? 3600)
    return Token(value: token, renewAt: clock.now().addingTimeInterval(lifetime - Self.renewalMargin))
  }
}
