import AuthCore
import AuthTestSupport
import Foundation
import NIOTransport
import Providers
import ShellKit
import Testing

/// The OAuth 2.0 JWT-bearer exchange against a loopback token endpoint that verifies the RS256
/// assertion with the test service account's public key.
@Suite struct ServiceAccountTokenSourceTests {
  @Test func assertionIsSignedAndCarriesTheRightClaims() async throws {
    let endpoint = try await TestTokenEndpoint()
    let source = ServiceAccountTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: SystemClock())
    #expect(try await source.accessToken() == "ya29.c.test-access-token-0001")
    #expect(endpoint.exchangeCount == 1)
    #expect(endpoint.problems == [])
  }

  @Test func oneExchangeForManyCallersSequentialAndConcurrent() async throws {
    let endpoint = try await TestTokenEndpoint()
    let source = ServiceAccountTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: SystemClock())
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
    let source = ServiceAccountTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: clock)
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
    let first = ServiceAccountTokenSource.shared(for: endpoint.account, transport: transport, clock: SystemClock(), trace: nil)
    let second = ServiceAccountTokenSource.shared(for: endpoint.account, transport: transport, clock: SystemClock(), trace: nil)
    #expect(first === second)
    var other = endpoint.account
    other.privateKeyId = "another-key"
    #expect(ServiceAccountTokenSource.shared(for: other, transport: transport, clock: SystemClock(), trace: nil) !== first)
    // Two admin providers made for two commands share the exchange.
    let target = Target(provider: .firebase, profile: "p", url: "http://127.0.0.1:9/identitytoolkit.googleapis.com/v1", key: "k", firebaseEmulatorHost: "127.0.0.1:9")
    for _ in 0..<3 {
      _ = AdminProviderFactory.make(target, credential: .firebaseServiceAccount(endpoint.account), transport: transport)
      _ = try await first.accessToken()
    }
    #expect(endpoint.exchangeCount == 1)
  }

  @Test func secretsAreRegisteredAndTracesMaskThem() async throws {
    let endpoint = try await TestTokenEndpoint()
    let redactor = Redactor()
    let lines = Collected()
    let secrets = Collected()
    let source = ServiceAccountTokenSource(
      account: endpoint.account, transport: NIOHTTPTransport(), clock: SystemClock(),
      trace: { line in lines.add(redactor.redact(line)) }, secrets: { secret in secrets.add(secret); redactor.register(secret) })
    let token = try await source.accessToken()
    let assertion = try #require(endpoint.assertions.first)
    #expect(secrets.all.contains(token) && secrets.all.contains(assertion) && secrets.all.contains(endpoint.account.privateKeyPEM))
    let trace = lines.all.joined(separator: "\n")
    #expect(trace.contains("> POST \(endpoint.tokenURI)"))
    #expect(trace.contains("assertion=***"))
    #expect(!trace.contains(token) && !trace.contains(assertion) && !trace.contains(String(assertion.prefix(40))))
    #expect(redactor.redact("Bearer \(token)") == "Bearer ***")
  }

  @Test func plainHTTPTokenURIIsOnlyForLoopback() async throws {
    var account = try await TestTokenEndpoint().account
    account.tokenURI = "http://oauth2.example.com/token"
    let source = ServiceAccountTokenSource(account: account, transport: NIOHTTPTransport(), clock: SystemClock())
    let error = try await #require(throws: AuthError.self) { try await source.accessToken() }
    #expect(error.code == .insecureURL)
  }

  @Test func keyThatIsNotRSAIsAConfigErrorNamingTheFile() async throws {
    var account = try await TestTokenEndpoint().account
    account.privateKeyPEM = "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
    let source = ServiceAccountTokenSource(account: account, transport: NIOHTTPTransport(), clock: SystemClock())
    let error = try await #require(throws: AuthError.self) { try await source.accessToken() }
    #expect(error.code == .configError && error.message.contains("/keys/demo-prod.json"))
  }
}
