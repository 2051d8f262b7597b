// TEMPORARY entry point: replaced by the table-driven CLI. `authsh emulator`, the shell
// (no arguments), `authsh completion SHELL` and `authsh __complete …` work here.
import AuthCore
import AuthEmulator
import Foundation
import LineEditor
import ShellKit

struct TemporarySink: OutputSink {
  func write(_ text: String, to stream: ShellKit.OutputStream) {
    let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
    handle.write(Data(text.utf8))
  }
}

struct UnreachableProvider: AuthProvider {
  let kind: ProviderKind
  let endpoint: String
  func fail() -> AuthError { AuthError(.networkUnreachable) }
  func signUp(email: String, password: String, name: String?) async throws -> SignUpOutcome { throw fail() }
  func signIn(email: String, password: String) async throws -> AuthSession { throw fail() }
  func sendPasswordReset(email: String) async throws { throw fail() }
  func confirmPasswordReset(codeOrLink: String, email: String?, newPassword: String) async throws -> AuthSession { throw fail() }
  func user(of session: AuthSession) async throws -> AuthUser { throw fail() }
  func refresh(_ session: AuthSession) async throws -> AuthSession { throw fail() }
  func signOut(_ session: AuthSession, scope: LogoutScope) async throws { throw fail() }
  func latestMail(to email: String) async throws -> InboxMessage? { throw fail() }
}

func makeContext() -> ShellContext {
  let environment = ProcessInfo.processInfo.environment
  let paths = Paths(environment: environment)
  let text = try? String(contentsOfFile: paths.configFile, encoding: .utf8)
  let resolver = ConfigResolver(
    environment: environment, paths: paths, configFile: text.map { .init(text: $0, mode: 0o600) })
  return ShellContext(
    resolver: resolver, makeProvider: { target, _ in UnreachableProvider(kind: target.provider, endpoint: target.url) },
    sessionStore: FileSessionStore(directory: paths.sessionsDirectory), environment: environment)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil, "--no-rc":
  let code = await InteractiveShell.run(context: makeContext(), output: TemporarySink(), noRC: arguments.contains("--no-rc"))
  exit(code)
case "--version":
  print("authsh 0.0.0-dev")
  exit(0)
case "completion":
  guard arguments.count == 2, let script = CompletionScripts.script(for: arguments[1]) else { exit(64) }
  print(script, terminator: "")
  exit(0)
case "__complete":
  guard let text = ShellCompletion.output(arguments: Array(arguments.dropFirst()), context: makeContext()) else { exit(64) }
  print(text, terminator: "")
  exit(0)
case "emulator":
  break
default:
  FileHandle.standardError.write("usage: authsh [emulator|completion SHELL|--no-rc]\n".data(using: .utf8)!)
  exit(64)
}
var config = EmulatorConfig()
var rest = arguments.dropFirst()[...]
while let flag = rest.popFirst() {
  switch flag {
  case "--host": config.host = rest.popFirst() ?? config.host
  case "--port": config.port = Int(rest.popFirst() ?? "") ?? config.port
  case "--project": config.project = rest.popFirst() ?? config.project
  case "--jwt-secret": config.jwtSecret = rest.popFirst() ?? config.jwtSecret
  case "--confirm-email": config.confirmEmail = true
  case "--email-privacy": config.emailPrivacy = true
  case "--state": config.statePath = rest.popFirst()
  default:
    FileHandle.standardError.write("unknown flag \(flag)\n".data(using: .utf8)!)
    exit(64)
  }
}
let emulator = try Emulator(config: config)
try await emulator.start()
print("authsh emulator listening on \(emulator.baseURL)")
fflush(nil)
await emulator.waitUntilClosed()
