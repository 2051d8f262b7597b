import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import NIOTransport
import Providers
import ShellKit
import Synchronization
import Testing

/// The OAuth 2.0 JWT-bearer exchange against a loopback token endpoint that verifies the RS256
/// assertion with the test service account's public key.
@Suite struct GoogleTokenSourceTests {
  @Test func assertionIsSignedAndCarriesTheRightClaims() async throws {
    let endpoint = try await TestTokenEndpoint()
    let source = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: SystemClock())
    #expect(try await source.accessToken() == "ya29.c.test-access-token-0001")
    #expect(endpoint.exchangeCount == 1)
    #expect(endpoint.problems == [])
  }

  @Test func oneExchangeForManyCallersSequentialAndConcurrent() async throws {
    let endpoint = try await TestTokenEndpoint()
    let source = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: SystemClock())
    let tokens = try await withThrowingTaskGroup(of: String.self) { group in
      for _ in 0..<20 { group.addTask { try await source.accessToken() } }
      return try await group.reduce(into: [String]()) { $0.append($1) }
    }
    for _ in 0..<5 { _ = try await source.accessToken() }
    #expect(Set(tokens) == ["ya29.c.test-access-token-0001"] && tokens.count == 20)
    #expect(endpoint.exchangeCount == 1)
    #expect(source.exchangeCount == 1)
  }

  @Test func tokenIsRenewedSixtySecondsBeforeItExpires() async throws {
    let endpoint = try await TestTokenEndpoint()
    let clock = ManualClock(Date())
    let source = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: clock)
    _ = try await source.accessToken()
    clock.advance(3599 - 61)
    _ = try await source.accessToken()
    #expect(endpoint.exchangeCount == 1)
    clock.advance(2)
    _ = try await source.accessToken()
    #expect(endpoint.exchangeCount == 2)
    #expect(endpoint.problems == [])
  }

  @Test func sharedSourceIsOnePerAccount() async throws {
    let endpoint = try await TestTokenEndpoint()
    let transport = NIOHTTPTransport()
    let first = GoogleTokenSource.shared(for: endpoint.account, transport: transport, clock: SystemClock(), trace: nil)
    let second = GoogleTokenSource.shared(for: endpoint.account, transport: transport, clock: SystemClock(), trace: nil)
    #expect(first === second)
    var other = endpoint.account
    other.privateKeyId = "another-key"
    #expect(GoogleTokenSource.shared(for: other, transport: transport, clock: SystemClock(), trace: nil) !== first)
    // Two admin providers made for two commands share the exchange.
    let target = Target(
      provider: .firebase, profile: "p", url: "http://127.0.0.1:9/identitytoolkit.googleapis.com/v1", key: "k",
      firebaseEmulatorHost: "127.0.0.1:9")
    for _ in 0..<3 {
      _ = AdminProviderFactory.make(target, credential: .firebaseServiceAccount(endpoint.account), transport: transport)
      _ = try await first.accessToken()
    }
    #expect(endpoint.exchangeCount == 1)
  }

  @Test func secretsAreRegisteredAndTracesMaskThem() async throws {
    let endpoint = try await TestTokenEndpoint()
    let redactor = Redactor()
    let lines = Guarded<[String]>([])
    let secrets = Guarded<[String]>([])
    let source = GoogleTokenSource(
      account: endpoint.account, transport: NIOHTTPTransport(), clock: SystemClock(),
      trace: { line in lines.update { $0.append(redactor.redact(line)) } },
      secrets: { secret in
        secrets.update { $0.append(secret) }
        redactor.register(secret)
      })
    let token = try await source.accessToken()
    let assertion = try #require(endpoint.assertions.first)
    #expect(
      secrets[\.self].contains(token) && secrets[\.self].contains(assertion)
        && secrets[\.self].contains(endpoint.account.privateKeyPEM))
    let trace = lines[\.self].joined(separator: "\n")
    #expect(trace.contains("> POST \(endpoint.tokenURI)"))
    #expect(trace.contains("assertion=***"))
    #expect(!trace.contains(token) && !trace.contains(assertion) && !trace.contains(String(assertion.prefix(40))))
    #expect(redactor.redact("Bearer \(token)") == "Bearer ***")
  }

  @Test func plainHTTPTokenURIIsOnlyForLoopback() async throws {
    var account = try await TestTokenEndpoint().account
    account.tokenURI = "http://oauth2.example.com/token"
    let source = GoogleTokenSource(account: account, transport: NIOHTTPTransport(), clock: SystemClock())
    let error = try await #require(throws: AuthError.self) { try await source.accessToken() }
    #expect(error.code == .insecureURL)
  }

  @Test func keyThatIsNotRSAIsAConfigErrorNamingTheFile() async throws {
    var account = try await TestTokenEndpoint().account
    account.privateKeyPEM = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
    let source = GoogleTokenSource(account: account, transport: NIOHTTPTransport(), clock: SystemClock())
    let error = try await #require(throws: AuthError.self) { try await source.accessToken() }
    #expect(error.code == .configError && error.message.contains("/keys/demo-prod.json"))
  }

  @Test("the assertion's iat is 10 s in the past (as Google's Go library does), exp an hour after it")
  func iatIsBackdated() async throws {
    let endpoint = try await TestTokenEndpoint()
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    let source = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: ManualClock(now))
    _ = try await source.accessToken()
    let claims = try #require(endpoint.claims.first)
    #expect(claims["iat"]?.int == 1_767_225_590)
    #expect(claims["exp"]?.int == 1_767_225_590 + 3600)
  }

  @Test("a refusal for clock skew says how far this clock is off, from the answer's Date header")
  func clockSkewIsMeasured() async throws {
    let endpoint = try await TestTokenEndpoint()
    endpoint.answer = (
      400,
      #"{"error":"invalid_grant","error_description":"Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."}"#
    )
    // Google's clock says 12:00:00; ours 12:00:42.
    endpoint.answerHeaders = [("Date", "Thu, 01 Jan 2026 12:00:00 GMT")]
    let ours = Date(timeIntervalSince1970: 1_767_268_842)
    let source = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: ManualClock(ours))
    let error = try await #require(throws: AuthError.self) { try await source.accessToken() }
    #expect(error.code == .configError)
    #expect(error.message.contains("Your clock is 42 s ahead of Google's"), "\(error.message)")
    endpoint.answerHeaders = [("Date", "Thu, 01 Jan 2026 12:00:40 GMT")]
    let close = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: ManualClock(ours))
    let near = try await #require(throws: AuthError.self) { try await close.accessToken() }
    #expect(!near.message.contains("Your clock"), "2 s is within what the header can tell")
    for unreadable in [
      "Thu, 01 Jan 2026 11:00:00 UTC", "Thu, 01 Foo 2026 11:00:00 GMT", "yesterday", "Thu, 1 Jan 2026 11:00 GMT",
    ] {
      endpoint.answerHeaders = [("Date", unreadable)]
      let odd = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: ManualClock(ours))
      let error = try await #require(throws: AuthError.self) { try await odd.accessToken() }
      #expect(
        !error.message.contains("Your clock"), "a Date header that is not an IMF-fixdate tells nothing: \(unreadable)")
    }
  }

  @Test("the exchange honours the timeout: a stalled token endpoint does not hold a 1 s command for 30 s")
  func exchangeHonoursTheTimeout() async throws {
    let server = FixtureServer()
    try await server.start()
    try await withStarted(server) { server in
      server.on("POST", "/token") { _ in
        await Stall.hold(upTo: .seconds(60))
        return .text(200, "{}")
      }
      var account = try await TestTokenEndpoint().account
      account.tokenURI = server.baseURL + "/token"
      // What the exchange asks of the transport is checked, not the wall clock (a loaded machine
      // can stall a test for seconds); the transport honouring a deadline is tested on its own.
      let transport = DeadlineRecordingTransport()
      let source = GoogleTokenSource(account: account, transport: transport, clock: SystemClock(), timeout: 1)
      let error = try await #require(throws: AuthError.self) { try await source.accessToken() }
      #expect(error.code == .timeout)
      #expect(transport.deadlines == [1], "the command's timeout, not a fixed 30 s")
      // Through the factory: the target's timeout reaches the shared source.
      var target = Target(
        provider: .firebase, profile: "p", url: "https://identitytoolkit.googleapis.com/v1", key: "k", projectId: "p")
      target.timeout = 1
      let admin = AdminProviderFactory.make(
        target, credential: .firebaseServiceAccount(account), transport: NIOHTTPTransport())
      let viaFactory = await #expect(throws: AuthError.self) { _ = try await admin.user(.id("x")) }
      #expect(viaFactory?.code == .timeout)
    }
  }

  @Test("expires_in 0 or negative is malformed and remembered: 200 calls make one exchange, not 200")
  func expiredAnswersAreNoStorm() async throws {
    for lifetime in ["0", "-5"] {
      let endpoint = try await TestTokenEndpoint()
      endpoint.answer = (200, #"{"access_token":"ya29.c.short","expires_in":"# + lifetime + "}")
      let source = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: SystemClock())
      var codes = Set<ErrorCode>()
      for _ in 0..<200 {
        do { _ = try await source.accessToken() } catch let error as AuthError { codes.insert(error.code) }
      }
      #expect(codes == [.malformedResponse])
      #expect(endpoint.exchangeCount == 1)
    }
  }

  @Test("a short expires_in is renewed at half its life, not on every call")
  func shortLifetimeIsCached() async throws {
    let endpoint = try await TestTokenEndpoint()
    endpoint.answer = (200, #"{"access_token":"ya29.c.short","expires_in":30}"#)
    let clock = ManualClock(Date())
    let source = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: clock)
    for _ in 0..<50 { _ = try await source.accessToken() }
    #expect(endpoint.exchangeCount == 1)
    clock.advance(16)
    _ = try await source.accessToken()
    #expect(endpoint.exchangeCount == 2)
  }
}

/// NIO underneath, and the deadline of every request it was given.
private final class DeadlineRecordingTransport: HTTPTransport {
  private let inner = NIOHTTPTransport()
  private let seen = Mutex<[Double]>([])

  var deadlines: [Double] { seen.withLock { $0 } }

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    seen.withLock { $0.append(request.timeout) }
    return try await inner.send(request)
  }
}
