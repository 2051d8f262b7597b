import AuthCore
import Foundation
import JSONKit
import ShellKit

@testable import AuthScript

/// A tiny in-memory stand-in for `CommandRunner`: enough of signup/login/whoami/logout/reset/inbox/
/// echo to drive the interpreter. `*@down.test` addresses answer `network_unreachable`, `*@slow.test`
/// `timeout`, `*@5xx.test` `server_error` (HTTP 503).
final class FakeBackend: Sendable {
  private struct State {
    var passwords: [String: String] = [:]
    var session: AuthSession?
    var mail: [String: InboxMessage] = [:]
    var commands: [String] = []
  }
  private let state = Guarded(State())
  var commands: [String] { state[\.commands] }

  var executor: CommandExecutor {
    CommandExecutor(
      run: { invocation, _ in self.run(invocation) },
      render: { result, _, _, _ in
        if let error = result.error { return ("", "error: \(error.message)\n") }
        let signedIn = result.payload(as: SessionOutput.self)
        if let user = signedIn?.user ?? signedIn?.session?.user { return ("\(user.email)\n", "") }
        return (result.output.map { $0 + "\n" } ?? "", "")
      })
  }

  func run(_ invocation: Invocation) -> CommandResult { state.update { Self.run(invocation, &$0) } }

  private static func run(_ invocation: Invocation, _ state: inout State) -> CommandResult {
    let name = invocation.spec.name
    state.commands.append(name)
    var result = CommandResult(command: name)
    let email = invocation.arguments["EMAIL"]?.text ?? ""
    let password = invocation.given(.password) ? invocation[.password] ?? "" : ""
    if email.hasSuffix("@down.test") { return .failure(name, AuthError(.networkUnreachable)) }
    if email.hasSuffix("@slow.test") { return .failure(name, AuthError(.timeout)) }
    if email.hasSuffix("@5xx.test") { return .failure(name, AuthError(.serverError, status: 503)) }
    switch name {
    case "signup", "login":
      if let problem = Validator.validate(.init(email: email, password: password)) { return .failure(name, problem) }
      if name == "signup" {
        guard state.passwords[email] == nil else {
          return .failure(name, AuthError(.userAlreadyExists, providerCode: "user_already_exists", status: 422))
        }
        state.passwords[email] = password
      } else if state.passwords[email] != password {
        return .failure(name, AuthError(.invalidCredentials, providerCode: "invalid_credentials", status: 400))
      }
      let user = AuthUser(id: "uid-" + email.prefix(3), email: email, emailConfirmed: true, provider: "email")
      let token = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1aWQifQ.sig-" + UUID().uuidString
      state.session = AuthSession(
        accessToken: token, refreshToken: "refresh-" + UUID().uuidString,
        expiresAt: Int(Date().timeIntervalSince1970) + 3600, user: user)
      result.payload = SessionOutput(session: state.session)
    case "whoami":
      guard let session = state.session else { return .failure(name, AuthError(.notAuthenticated)) }
      result.payload = SessionOutput(user: session.user, session: session)
    case "logout":
      guard state.session != nil else { return .failure(name, AuthError(.notAuthenticated)) }
      state.session = nil
    case "reset":
      result.payload = ResetOutput(email: email)
      state.mail[email] = InboxMessage(
        kind: "recovery", code: "123456", link: "http://127.0.0.1/verify?token=abc&email=\(email)", email: email)
    case "inbox":
      guard let message = state.mail[email] else { return .failure(name, AuthError(.noMail)) }
      result.payload = InboxOutput(message: message)
    case "echo":
      result.output = invocation.rest.joined(separator: " ")
    default:
      break
    }
    return result
  }
}

struct UnusedProvider: AuthProvider {
  var kind: ProviderKind { .supabase }
  var endpoint: String { "http://127.0.0.1:1" }
  func signUp(email: String, password: String, name: String?) async throws -> SignUpOutcome {
    throw AuthError(.notSupported)
  }
  func signIn(email: String, password: String) async throws -> AuthSession { throw AuthError(.notSupported) }
  func sendPasswordReset(email: String) async throws { throw AuthError(.notSupported) }
  func confirmPasswordReset(codeOrLink: String, email: String?, newPassword: String) async throws -> AuthSession {
    throw AuthError(.notSupported)
  }
  func user(of session: AuthSession) async throws -> AuthUser { throw AuthError(.notSupported) }
  func refresh(_ session: AuthSession) async throws -> AuthSession { throw AuthError(.notSupported) }
  func signOut(_ session: AuthSession, scope: LogoutScope) async throws { throw AuthError(.notSupported) }
  func latestMail(to email: String) async throws -> InboxMessage? { nil }
}

func makeTestContext(environment: [String: String] = ["HOME": "/tmp"], redactor: Redactor = Redactor()) -> ShellContext
{
  let resolver = ConfigResolver(environment: environment, paths: Paths(environment: environment), configFile: nil)
  return ShellContext(
    resolver: resolver, makeProvider: { _, _ in UnusedProvider() }, sessionStore: InMemorySessionStore(),
    redactor: redactor, environment: environment)
}

/// Parses and checks `text`, returning every diagnostic.
func diagnose(
  _ text: String, name: String = "t.auth", files: [String: String] = [:], environment: [String: String] = [:]
) -> [Diagnostic] {
  let loader = ScriptLoader(readFile: { path in
    guard let text = files[(path as NSString).lastPathComponent] else { throw CocoaError(.fileNoSuchFile) }
    return text
  })
  let (program, diagnostics) = loader.load(SourceFile(name: name, path: "/scripts/" + name, text: text))
  return diagnostics + Checker(environment: environment).check(program)
}
