import AuthCore
import AuthTestSupport
import Foundation
import ShellKit

/// An in-memory backend: accounts by e-mail, sessions as opaque tokens.
final class FakeProvider: AuthProvider {
  let kind: ProviderKind = .supabase
  let endpoint = "http://127.0.0.1:9999/auth/v1"
  private struct State {
    var passwords: [String: String]
    var signInAttempts: [(email: String, password: String)] = []
    var delay: Duration?
    var waiting = false
    var userError: AuthError?
    var refreshError: AuthError?
  }
  private let state: Guarded<State>
  var signInAttempts: [(email: String, password: String)] { state[\.signInAttempts] }
  /// Makes every call wait, so tests can cancel it.
  var delay: Duration? {
    get { state[\.delay] }
    set { state[\.delay] = newValue }
  }
  /// Whether a delayed call is waiting right now (a request "in flight").
  var isWaiting: Bool { state[\.waiting] }
  /// The next `user(of:)` fails with this.
  var userError: AuthError? {
    get { state[\.userError] }
    set { state[\.userError] = newValue }
  }
  var refreshError: AuthError? {
    get { state[\.refreshError] }
    set { state[\.refreshError] = newValue }
  }

  init(accounts: [String: String] = [:]) { state = Guarded(State(passwords: accounts)) }

  func session(for email: String) -> AuthSession {
    let user = AuthUser(
      id: "uid-\(email)", email: email, emailConfirmed: true, name: nil, createdAt: nil, lastSignInAt: nil,
      provider: "email")
    return AuthSession(
      accessToken: "access-token-\(email)", refreshToken: "refresh-token-\(email)", expiresAt: 4_102_444_800, user: user
    )
  }

  private func wait() async throws {
    guard let delay else { return }
    state[\.waiting] = true
    defer { state[\.waiting] = false }
    await Stall.hold(upTo: delay)
    try Task.checkCancellation()
  }

  func signUp(email: String, password: String, name: String?) async throws -> SignUpOutcome {
    try await wait()
    try state.update { (state) throws(AuthError) in
      guard state.passwords[email.lowercased()] == nil else { throw AuthError(.userAlreadyExists) }
      state.passwords[email.lowercased()] = password
    }
    return .signedIn(session(for: email))
  }

  func signIn(email: String, password: String) async throws -> AuthSession {
    try await wait()
    try state.update { (state) throws(AuthError) in
      state.signInAttempts.append((email, password))
      guard state.passwords[email.lowercased()] == password else {
        throw AuthError(.invalidCredentials, providerCode: "invalid_credentials", status: 400)
      }
    }
    return session(for: email)
  }

  func sendPasswordReset(email: String) async throws { try await wait() }
  func confirmPasswordReset(codeOrLink: String, email: String?, newPassword: String) async throws -> AuthSession {
    throw AuthError(.invalidCode)
  }
  func user(of session: AuthSession) async throws -> AuthUser {
    try await wait()
    if let userError { throw userError }
    return session.user
  }
  func refresh(_ session: AuthSession) async throws -> AuthSession {
    if let refreshError { throw refreshError }
    return session
  }
  func signOut(_ session: AuthSession, scope: LogoutScope) async throws {}
  func latestMail(to email: String) async throws -> InboxMessage? { nil }
}

/// Answers prompts from a list; nil when it runs out (like Ctrl-D). With `readsText` it also
/// answers the echoed prompts for e-mails and names (a terminal).
final class ScriptedPrompter: PasswordPrompter {
  private struct State {
    var answers: [String]
    var prompts: [String] = []
  }
  private let state: Guarded<State>
  let readsText: Bool
  init(readsText: Bool = false, _ answers: [String]) {
    state = Guarded(State(answers: answers))
    self.readsText = readsText
  }
  var prompts: [String] { state[\.prompts] }
  func readPassword(prompt: String) -> String? { answer(prompt) }
  func readText(prompt: String) -> String? { readsText ? answer(prompt) : nil }
  /// The next answer, the prompt recorded.
  func answer(_ prompt: String) -> String? {
    state.update { state in
      state.prompts.append(prompt)
      return state.answers.isEmpty ? nil : state.answers.removeFirst()
    }
  }
}

/// A shell on a scripted transcript, with a fake backend and a temporary state directory.
struct ReplHarness {
  let provider: FakeProvider
  let context: ShellContext
  let sink = CapturingSink()
  let reader: ScriptedLineReader
  let repl: Repl
  let directory: String

  init(
    _ lines: [String], accounts: [String: String] = [:], passwords: [String] = [], configured: Bool = true,
    config: String? = nil, interactive: Bool = true, prompter: (any PasswordPrompter)? = nil,
    options: (inout ReplOptions) -> Void = { _ in }
  ) {
    let directory = NSTemporaryDirectory() + "authsh-repl-\(UUID().uuidString)"
    self.directory = directory
    var environment = [
      "HOME": directory, "XDG_STATE_HOME": directory + "/state", "XDG_CONFIG_HOME": directory + "/config",
    ]
    if configured {
      environment["SUPABASE_URL"] = "http://127.0.0.1:9999"
      environment["SUPABASE_ANON_KEY"] = "anon-key-for-tests"
    }
    let provider = FakeProvider(accounts: accounts)
    self.provider = provider
    let paths = Paths(environment: environment)
    context = ShellContext(
      resolver: ConfigResolver(
        environment: environment, paths: paths, configFile: config.map { .init(text: $0, mode: 0o600) }),
      makeProvider: { _, _ in provider }, sessionStore: InMemorySessionStore(), environment: environment,
      passwordPrompter: prompter ?? ScriptedPrompter(passwords))
    reader = ScriptedLineReader(lines)
    var replOptions = ReplOptions.standard(environment: environment, interactive: interactive)
    options(&replOptions)
    repl = Repl(context: context, reader: reader, output: sink, options: replOptions)
  }

  var historyPath: String { directory + "/state/authsh/history" }
  var historyFileText: String { (try? String(contentsOfFile: historyPath, encoding: .utf8)) ?? "" }

  func run() async -> Int32 { await repl.run() }
}
