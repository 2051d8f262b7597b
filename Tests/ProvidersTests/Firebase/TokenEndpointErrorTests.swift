import AuthCore
import AuthTestSupport
import Foundation
import NIOTransport
import Providers
import ShellKit
import Testing

/// Google's token endpoint refusals, as it words them, become `config_error`s that name the
/// service account and say what to do; the exit status is 1 (the endpoint answered).
@Suite struct TokenEndpointErrorTests {
  struct Row: Sendable, CustomStringConvertible {
    var status: Int
    var body: String
    var says: [String]
    var description: String { body }
  }

  static let rows: [Row] = [
    Row(
      status: 400, body: #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#,
      says: ["revoked, deleted or not this account's", "Generate new private key"]),
    Row(
      status: 400,
      body:
        #"{"error":"invalid_grant","error_description":"Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim."}"#,
      says: ["clock skew", "Check this computer's clock"]),
    Row(
      status: 400, body: #"{"error":"invalid_grant","error_description":"Invalid grant: account not found"}"#,
      says: ["does not exist"]),
    Row(
      status: 400, body: #"{"error":"invalid_grant","error_description":"Service account is disabled."}"#,
      says: ["disabled"]),
    Row(
      status: 401, body: #"{"error":"invalid_client","error_description":"The OAuth client was not found."}"#,
      says: ["invalid_client", "deleted"]),
    Row(
      status: 401,
      body:
        #"{"error":"unauthorized_client","error_description":"Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested."}"#,
      says: ["unauthorized_client"]),
  ]

  @Test(arguments: rows)
  func refusalIsAClearConfigError(row: Row) async throws {
    let endpoint = try await TestTokenEndpoint()
    endpoint.answer = (row.status, row.body)
    let source = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: SystemClock())
    let error = try await #require(throws: AuthError.self) { try await source.accessToken() }
    #expect(error.code == .configError)
    #expect(error.status == row.status)
    #expect(ExitStatus.forError(error) == 1)
    #expect(error.message.contains(TestTokenEndpoint.email))
    let text = error.message + " " + (error.hint ?? "")
    for phrase in row.says { #expect(text.contains(phrase), "\(phrase) in \(text)") }
    #expect(endpoint.problems == [])
  }

  @Test func aRefusalIsNotAskedAgainAtOnce() async throws {
    let endpoint = try await TestTokenEndpoint()
    endpoint.answer = (400, #"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#)
    let clock = ManualClock(Date())
    let source = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: clock)
    for _ in 0..<3 { await #expect(throws: AuthError.self) { try await source.accessToken() } }
    #expect(endpoint.exchangeCount == 1)
    clock.advance(31)
    await #expect(throws: AuthError.self) { try await source.accessToken() }
    #expect(endpoint.exchangeCount == 2)
  }

  @Test func serverErrorIsNotAConfigurationProblem() async throws {
    let endpoint = try await TestTokenEndpoint()
    endpoint.answer = (503, "<html>unavailable</html>")
    let source = GoogleTokenSource(account: endpoint.account, transport: NIOHTTPTransport(), clock: SystemClock())
    let error = try await #require(throws: AuthError.self) { try await source.accessToken() }
    #expect(error.code == .serverError)
  }
}
