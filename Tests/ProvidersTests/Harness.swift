import AuthCore
import AuthTestSupport
import CurlTransport
import Foundation
import HTTPServerKit
import JSONKit
import NIOTransport
import Providers
import ShellKit
import SocketTransport

/// The three HTTP clients: libcurl (TLS, production), NIO (plain http://: the shell, one-shot
/// commands, parallel work) and blocking sockets (plain http://: a script's own steps).
enum TransportKind: String, CaseIterable, Sendable {
  case curl, nio, socket

  func make() -> any HTTPTransport {
    switch self {
    case .curl: CurlTransport()
    case .nio: NIOHTTPTransport()
    case .socket: OwnThreadTransport(inner: SocketHTTPTransport())
    }
  }
}

/// The socket transport as `authsh run` uses it: each request sent from a thread that may block,
/// never from the shared pool the fixture server's handlers run on.
struct OwnThreadTransport: HTTPTransport {
  let inner: SocketHTTPTransport

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await ThreadTaskExecutor.onOwnThread { try await inner.send(request) }
  }
}

/// A fixture server plus a shell context pointing a provider at it (real socket, real HTTP client).
final class Harness: TestService, @unchecked Sendable {
  let server = FixtureServer()
  let store = InMemorySessionStore()
  let provider: ProviderKind
  let transportKind: TransportKind
  var environment: [String: String] = [:]
  /// The clock commands see (cooldowns, expiry); tests move it by hand.
  var clock: any Clock = SystemClock()

  static let password = "correct-horse-battery"
  static let accessToken = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2ln"

  init(_ provider: ProviderKind, transport: TransportKind = .curl) async throws {
    self.provider = provider
    self.transportKind = transport
    try await server.start()
  }

  func context(url: String? = nil) -> ShellContext {
    var env = environment
    switch provider {
    case .supabase:
      env["SUPABASE_URL"] = url ?? server.baseURL
      env["SUPABASE_ANON_KEY"] = env["SUPABASE_ANON_KEY"] ?? "anon-key-for-tests"
    case .firebase:
      env["FIREBASE_AUTH_EMULATOR_HOST"] = url.map(Target.hostAndPort) ?? "127.0.0.1:\(server.port)"
      env["FIREBASE_API_KEY"] = env["FIREBASE_API_KEY"] ?? "api-key-for-tests"
      env["FIREBASE_PROJECT_ID"] = "demo-authsh"
    }
    let paths = Paths(configDirectory: "/nonexistent/authsh", stateDirectory: "/nonexistent/state")
    let transport = transportKind.make()
    let clock = self.clock
    // A minute, not the default 30 s: under CI's parallel load the in-process server's answers can
    // wait that long for a thread (a line's own --timeout still wins).
    var connection = ConnectionFlags()
    connection.timeout = 60
    return ShellContext(
      resolver: ConfigResolver(environment: env, paths: paths, configFile: nil), connection: connection,
      makeProvider: { target, trace in ProviderFactory.make(target, transport: transport, clock: clock, trace: trace) },
      sessionStore: store, clock: clock, environment: env)
  }

  /// Parses a line as a script statement would be and runs it.
  func run(_ line: String, context: ShellContext? = nil) async throws -> CommandResult {
    let words = try WordSplitter.split(line)
    guard case .success(let invocation) = InvocationParser.parse(words, surface: .script) else {
      throw AuthError(.usage, message: "test line does not parse: \(line)")
    }
    return await CommandRunner().run(invocation, in: context ?? self.context())
  }

  /// Stores a session so session commands have something to work on.
  func signedIn(expiresIn: Int = 3600, refreshToken: String = "abcd1234wxyz") throws {
    let user = AuthUser(id: "user-1", email: "ada@example.com", emailConfirmed: true, provider: "email")
    let session = AuthSession(
      accessToken: Self.accessToken, refreshToken: refreshToken,
      expiresAt: Int(Date().timeIntervalSince1970) + expiresIn, user: user)
    try store.save(ProfileState(session: session, backend: backendKey), profile: backendKey)
  }

  /// The store key of the harness's backend (sessions are kept per backend).
  var backendKey: String { (try? BackendKey(context().target()).canonical) ?? "unresolved" }

  func stop() async { await server.stop() }
}
