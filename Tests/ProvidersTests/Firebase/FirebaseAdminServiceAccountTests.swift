import AuthCore
import AuthTestSupport
import CurlTransport
import Foundation
import HTTPServerKit
import JSONKit
import Providers
import Testing

/// The admin provider made from a service account: the project comes from the file unless the
/// target names one, the bearer is the exchanged `ya29.` token, and refusals name the account.
@Suite struct FirebaseAdminServiceAccountTests {
  static func production(_ server: FixtureServer, projectId: String? = nil) -> Target {
    Target(
      provider: .firebase, profile: "prod", url: server.baseURL + "/identitytoolkit.googleapis.com/v1", key: "AIza-key",
      projectId: projectId)
  }

  @Test func projectAndBearerComeFromTheServiceAccount() async throws {
    try await withStarted(TestTokenEndpoint()) { endpoint in
      let toolkit = FixtureServer()
      try await toolkit.start()
      try await withStarted(toolkit) { toolkit throws in
        let lookup = "/identitytoolkit.googleapis.com/v1/projects/demo-prod/accounts:lookup"
        toolkit.on("POST", lookup, status: 200, json: #"{"kind": "identitytoolkit#GetAccountInfoResponse"}"#)
        let admin = AdminProviderFactory.make(
          Self.production(toolkit), credential: .firebaseServiceAccount(endpoint.account), transport: CurlTransport())
        #expect(try await admin.user(.email("ada@example.com")) == nil)
        #expect(try await admin.user(.id("abc")) == nil)
        let requests = toolkit.requests.filter { $0.path == lookup }
        #expect(requests.count == 2, "the project id of the service-account file")
        #expect(requests.allSatisfy { $0.header("Authorization") == "Bearer ya29.c.test-access-token-0001" })
        #expect(endpoint.exchangeCount == 1)
        #expect(endpoint.problems.isEmpty)
      }
    }
  }

  @Test func theTargetsProjectWinsAndRefusalsNameTheAccount() async throws {
    try await withStarted(TestTokenEndpoint()) { endpoint in
      let toolkit = FixtureServer()
      try await toolkit.start()
      try await withStarted(toolkit) { toolkit in
        let lookup = "/identitytoolkit.googleapis.com/v1/projects/other-project/accounts:lookup"
        toolkit.on(
          "POST", lookup, status: 403,
          json:
            #"{"error": {"code": 403, "message": "The caller does not have permission", "status": "PERMISSION_DENIED"}}"#
        )
        let admin = AdminProviderFactory.make(
          Self.production(toolkit, projectId: "other-project"), credential: .firebaseServiceAccount(endpoint.account),
          transport: CurlTransport())
        do {
          _ = try await admin.user(.email("ada@example.com"))
          Issue.record("a 403 must fail")
        } catch let error as AuthError {
          #expect(error.code == .configError)
          #expect(error.status == 403)
          #expect(error.message.contains("authsh-admin@demo-prod.iam.gserviceaccount.com"), "\(error.message)")
          #expect(error.message.contains("'other-project'"))
        }
        #expect(toolkit.requests.contains { $0.path == lookup })
      }
    }
  }
}
