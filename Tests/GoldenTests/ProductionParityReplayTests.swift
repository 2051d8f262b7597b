import AuthTestSupport
import Foundation
import HTTPServerKit
import Testing

/// `examples/production-parity.auth` passes against recorded production answers of both products
/// (the replay fixtures of the provider tests, with the address of the request put in), as it
/// does against `authsh emulator --like-production` (`ReportAndExampleTests`).
@Suite(.serialized) struct ProductionParityReplayTests {
  static let fixtures = AuthshProcess.packageRoot.appendingPathComponent("Tests/ProvidersTests/Fixtures")
  static let examples = AuthshProcess.packageRoot.appendingPathComponent("examples")

  /// A route answering a fixture file with the recorded address replaced by the request's.
  static func replay(_ file: String, status: Int = 200) -> FixtureServer.Route {
    { request in
      let text = (try? String(contentsOf: fixtures.appendingPathComponent(file), encoding: .utf8)) ?? "{}"
      let body = String(decoding: request.body, as: UTF8.self)
      let email = (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["email"] as? String
      let answer = email.map { text.replacingOccurrences(of: "ada@example.com", with: $0) } ?? text
      return ServerResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(answer.utf8))
    }
  }

  /// Runs the script off Swift's cooperative threads: the blocking wait must not starve the
  /// fixture server's handlers, which run there.
  func run(_ server: FixtureServer, _ connection: [String]) async throws -> AuthshProcess.Outcome {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result { try AuthshProcess.run(connection + ["run", "production-parity.auth"], in: Self.examples) })
      }
    }
  }

  @Test func supabaseProductionAnswers() async throws {
    try #require(FileManager.default.isExecutableFile(atPath: AuthshProcess.binary.path), "build authsh first")
    let server = FixtureServer()
    try await server.start()
    try await withStarted(server) { server in
      server.on("POST", "/auth/v1/signup", Self.replay("supabase/signup_unconfirmed.json"))
      server.on("POST", "/auth/v1/token", Self.replay("supabase/error_invalid_credentials_2024.json", status: 400))
      server.on("POST", "/auth/v1/recover", status: 200, json: "{}")
      let outcome = try await run(
        server, ["--provider", "supabase", "--url", server.baseURL, "--key", "sb_publishable_replay"])
      #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
      #expect(outcome.stdout.hasSuffix("3 passed, 0 failed\n"))
    }
  }

  @Test func firebaseProductionAnswers() async throws {
    try #require(FileManager.default.isExecutableFile(atPath: AuthshProcess.binary.path), "build authsh first")
    let server = FixtureServer()
    try await server.start()
    try await withStarted(server) { server in
      let toolkit = "/identitytoolkit.googleapis.com/v1/accounts:"
      server.on("POST", toolkit + "signUp", Self.replay("firebase/signup.json"))
      server.on("POST", toolkit + "update", Self.replay("firebase/update_profile.json"))
      server.on(
        "POST", toolkit + "signInWithPassword",
        Self.replay("firebase/error_INVALID_LOGIN_CREDENTIALS.json", status: 400))
      server.on("POST", toolkit + "sendOobCode", Self.replay("firebase/send_oob.json"))
      let outcome = try await run(
        server,
        [
          "--provider", "firebase", "--url", server.baseURL + "/identitytoolkit.googleapis.com/v1", "--key",
          "AIzaReplayKey",
        ])
      #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)\n\(server.requests.map(\.path))")
      #expect(outcome.stdout.hasSuffix("3 passed, 0 failed\n"))
    }
  }
}
