import AuthCore
import AuthEmulator
import AuthTestSupport
import CurlTransport
import Foundation
import HTTPServerKit
import JSONKit
import Providers
import ShellKit
import Testing

/// Every command through the real provider, over a socket, against the emulator; and every
/// injected fault arriving as its catalogue code through the real client.
@Suite struct EmulatorIntegrationTests {
  final class Rig: TestService, @unchecked Sendable {
    let emulator: Emulator
    let context: ShellContext
    init(_ provider: ProviderKind) async throws {
      var config = EmulatorConfig()
      config.port = 0
      emulator = try Emulator(config: config)
      FileDescriptorLimit.raiseSoftLimit()
      try await emulator.start()
      var env: [String: String] = [:]
      if provider == .supabase {
        env = ["SUPABASE_URL": emulator.baseURL, "SUPABASE_ANON_KEY": "anon"]
      } else {
        env = [
          "FIREBASE_AUTH_EMULATOR_HOST": emulator.firebaseHost, "FIREBASE_API_KEY": "key",
          "FIREBASE_PROJECT_ID": config.project,
        ]
      }
      let transport = CurlTransport()
      context = ShellContext(
        resolver: ConfigResolver(
          environment: env, paths: Paths(environment: ["HOME": "/nonexistent"]), configFile: nil),
        makeProvider: { target, trace in ProviderFactory.make(target, transport: transport, trace: trace) },
        sessionStore: InMemorySessionStore(), environment: env)
    }

    func run(_ line: String) async throws -> CommandResult {
      guard case .success(let invocation) = InvocationParser.parse(try WordSplitter.split(line), surface: .script)
      else {
        throw AuthError(.usage, message: line)
      }
      return await CommandRunner().run(invocation, in: context)
    }

    func fault(_ json: String) async {
      let response = await emulator.handle(
        ServerRequest(
          method: "PUT", uri: "/emulator/v1/faults", headers: [("Content-Type", "application/json")],
          body: Array(json.utf8)))
      #expect(response.status == 200, "fault accepted: \(String(decoding: response.body, as: UTF8.self))")
    }

    func stop() async { await emulator.shutdown() }
  }

  @Test(arguments: ProviderKind.allCases)
  func everyCommandAgainstTheEmulator(_ provider: ProviderKind) async throws {
    try await withStarted(Rig(provider)) { rig in
      let signup = try await rig.run("signup Ada@Example.com --name 'Ada Lovelace' --password correct-horse-1")
      #expect(signup.ok, "\(String(describing: signup.error))")
      #expect(signup.session?.user.email == "ada@example.com", "the backend lower-cases e-mails")
      let duplicate = try await rig.run("signup ada@example.com --name Ada --password correct-horse-1")
      #expect(duplicate.error?.code == .userAlreadyExists)
      let whoami = try await rig.run("whoami")
      #expect(whoami.user?.name == "Ada Lovelace")
      #expect(whoami.claims?["sub"]?.string == whoami.user?.id)
      #expect(try await rig.run("refresh").ok)
      #expect(try await rig.run("login ada@example.com --password wrong-password").error?.code == .invalidCredentials)
      #expect(try await rig.run("login ada@example.com --password correct-horse-1").ok)
      #expect(try await rig.run("reset ada@example.com").ok)
      let inbox = try await rig.run("inbox ada@example.com")
      #expect(inbox.inbox?.kind == "password_reset")
      let link = try #require(inbox.inbox?.link)
      let confirm = try await rig.run("reset confirm '\(link)' --password correct-horse-2")
      #expect(confirm.ok, "\(String(describing: confirm.error))")
      #expect(
        try await rig.run("reset confirm '\(link)' --password correct-horse-3").error?.code == .invalidCode,
        "codes are single-use")
      #expect(try await rig.run("login ada@example.com --password correct-horse-1").error?.code == .invalidCredentials)
      #expect(try await rig.run("login ada@example.com --password correct-horse-2").ok)
      let status = try await rig.run("status")
      #expect(status.status?.signedIn == true)
      #expect(status.status?.provider == provider)
      #expect(try await rig.run("logout").ok)
      #expect(try await rig.run("whoami").error?.code == .notAuthenticated)
    }
  }

  static let faults: [(String, ErrorCode)] = [
    (
      #"{"status":429,"json":{"code":"over_request_rate_limit","message":"Request rate limit reached"},"headers":{"Retry-After":"30"}}"#,
      .rateLimited
    ),
    (#"{"preset":"rate_limit"}"#, .rateLimited),
    (#"{"preset":"server_error"}"#, .serverError),
    (#"{"preset":"html502"}"#, .serverError),
    (#"{"preset":"truncated_json"}"#, .malformedResponse),
    (#"{"preset":"drop"}"#, .malformedResponse),
    (#"{"latency_ms":5000}"#, .timeout),
  ]

  @Test(arguments: ProviderKind.allCases)
  func injectedFaultsReachTheUserAsCatalogueCodes(_ provider: ProviderKind) async throws {
    try await withStarted(Rig(provider)) { rig in
      #expect(try await rig.run("signup bo@example.com --name Bo --password correct-horse-1").ok)
      let path =
        provider == .supabase ? "/auth/v1/token" : "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
      for (fault, code) in Self.faults {
        // libcurl sends a request again, once, on a fresh connection when a reused keep-alive one
        // closes before a byte of answer (what a connection the server closed while idle looks
        // like): a drop reaches the user when the fresh connection drops too.
        let times = fault.contains("drop") ? 2 : 1
        let spec = String(fault.dropLast()) + #","method":"POST","path":"\#(path)","times":\#(times)}"#
        await rig.fault(#"{"faults":[\#(spec)]}"#)
        // Only the latency fault needs a short deadline; the others answer at once.
        let timeout = code == .timeout ? " --timeout 1s" : ""
        let result = try await rig.run("login bo@example.com --password correct-horse-1" + timeout)
        if code == .malformedResponse, fault.contains("drop") {
          #expect(result.error?.isBackendFailure == true, "\(fault)")
        } else {
          #expect(result.error?.code == code, "\(fault) → \(String(describing: result.error))")
        }
        #expect(ExitStatus.oneShot(result) == (code == .rateLimited ? 1 : 3), "\(fault)")
        if fault.contains("Retry-After") { #expect(result.error?.retryAfterSeconds == 30) }
      }
      #expect(
        try await rig.run("login bo@example.com --password correct-horse-1").ok, "faults apply `times` requests only")
    }
  }
}
