import AuthEmulator
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit

/// The real `authsh` binary against an in-process emulator on a free port.
final class CLIEmulator: TestService, @unchecked Sendable {
  let emulator: Emulator
  var runner: BinaryRunner
  let provider: String
  static let password = "Known-Pa55word-for-leaks"

  init(provider: String, configure: (inout EmulatorConfig) -> Void = { _ in }) async throws {
    var config = EmulatorConfig()
    config.port = 0
    configure(&config)
    emulator = try Emulator(config: config)
    FileDescriptorLimit.raiseSoftLimit()
    try await emulator.start()
    self.provider = provider
    runner = try BinaryRunner()
    if provider == "supabase" {
      runner.environment["SUPABASE_URL"] = emulator.baseURL
      runner.environment["SUPABASE_ANON_KEY"] = "anon-key-for-cli-tests"
    } else {
      runner.environment["FIREBASE_AUTH_EMULATOR_HOST"] = emulator.firebaseHost
      runner.environment["FIREBASE_API_KEY"] = "api-key-for-cli-tests"
      runner.environment["FIREBASE_PROJECT_ID"] = config.project
    }
    runner.environment["AUTHSH_TEST_PW"] = Self.password
  }

  func authsh(_ args: String..., stdin: String? = nil) async throws -> BinaryRunner.Outcome {
    try await runner.run(args, stdin: stdin)
  }

  var sessionsDirectory: String { runner.home + "/state/authsh/sessions" }

  /// The one backend's session file (named after the backend, not the profile).
  var sessionFile: String {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: sessionsDirectory)) ?? []
    return sessionsDirectory + "/" + (names.first { $0.hasSuffix(".json") } ?? "none.json")
  }

  /// The stored session, `.null` when there is none (a file with nothing left in it is removed).
  func storedSession() throws -> JSON {
    guard FileManager.default.fileExists(atPath: sessionFile) else { return .null }
    let data = try Data(contentsOf: URL(fileURLWithPath: sessionFile))
    return try JSON.parse(bytes: Array(data))["session"] ?? .null
  }

  /// Rewrites the stored session's expiry (as if time had passed), keeping the file 0600.
  func expireStoredToken() throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: sessionFile))
    guard case .object(var root) = try JSON.parse(bytes: Array(data)), case .object(var session)? = root["session"]
    else { return }
    session["expires_at"] = .int(Int(Date().timeIntervalSince1970) - 100)
    root["session"] = .object(session)
    try Data(JSON.object(root).prettyText.utf8).write(to: URL(fileURLWithPath: sessionFile))
    chmod(sessionFile, 0o600)
  }

  /// Ends the session on the server, as another device or an admin would.
  func revokeOnServer(email: String) async throws {
    let session = try storedSession()
    if provider == "supabase" {
      let token = session["access_token"]?.string ?? ""
      _ = await emulator.handle(
        ServerRequest(
          method: "POST", uri: "/auth/v1/logout?scope=global", headers: [("Authorization", "Bearer " + token)]))
    } else {
      let localId = session["user"]?["id"]?.string ?? ""
      let body: JSON = ["localId": .string(localId)]
      _ = await emulator.handle(
        ServerRequest(
          method: "POST", uri: "/identitytoolkit.googleapis.com/v1/projects/\(emulator.config.project)/accounts:delete",
          headers: [("Authorization", "Bearer owner"), ("Content-Type", "application/json")], body: body.bytes))
    }
  }

  /// Every file under HOME, as text.
  func filesUnderHome() -> [(String, String)] {
    let root = URL(fileURLWithPath: runner.home)
    guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
    return enumerator.compactMap { item in
      guard let url = item as? URL, let data = try? Data(contentsOf: url) else { return nil }
      return (url.path, String(decoding: data, as: UTF8.self))
    }
  }

  func stop() async { await emulator.shutdown() }
}
