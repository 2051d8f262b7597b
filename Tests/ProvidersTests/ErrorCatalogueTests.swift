import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import ShellKit
import Testing

/// Every row of the error catalogue: the real server's answer over a socket → the stable code, the specs'
/// message, the exit code; nothing crashes.
@Suite struct ErrorCatalogueTests {
  @Test(arguments: SupabaseErrorCases.all + FirebaseErrorCases.all, TransportKind.allCases)
  func backendAnswerBecomesCatalogueError(_ row: ErrorCase, _ transport: TransportKind) async throws {
    try await withStarted(Harness(row.provider, transport: transport)) { harness in
      if row.signedIn { try harness.signedIn(expiresIn: row.expiresIn) }
      let body = row.fixture.map { Array(Fixture.text($0).utf8) } ?? []
      let headers = [("Content-Type", row.contentType)] + row.headers
      harness.server.on(row.method, row.path) { _ in
        ServerResponse(status: row.status, headers: headers.map { (name: $0.0, value: $0.1) }, body: body)
      }
      if row.code == .sessionExpired, row.line == "whoami" {
        // A refused access token is answered by one refresh; here the refresh token is refused too.
        let (path, fixture) =
          row.provider == .supabase
          ? ("/auth/v1/token", "supabase/error_refresh_token_not_found.json")
          : ("/securetoken.googleapis.com/v1/token", "firebase/error_INVALID_REFRESH_TOKEN.json")
        harness.server.on("POST", path, status: row.status, json: Fixture.text(fixture))
      }
      let result = try await harness.run(row.line)
      let error = try #require(result.error, "expected \(row.code), got success")
      #expect(error.code == row.code)
      #expect(error.message == row.message)
      #expect(ExitStatus.oneShot(result) == row.exit)
      if let providerCode = row.providerCode { #expect(error.providerCode == providerCode) }
      if let retryAfter = row.retryAfter { #expect(error.retryAfterSeconds == retryAfter) }
      if let hint = row.hint { #expect(error.hint?.contains(hint) == true, "hint: \(error.hint ?? "none")") }
      if row.status > 0, row.code != .notAuthenticated { #expect(error.status == row.status) }
      if row.code == .sessionExpired {
        #expect(try harness.store.load(profile: harness.backendKey).session == nil, "a refused session is forgotten")
      }
    }
  }
}
