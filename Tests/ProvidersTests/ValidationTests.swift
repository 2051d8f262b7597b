import AuthCore
import AuthTestSupport
import Foundation
import Providers
import ShellKit
import Testing

/// A transport that fails the test if anything is sent.
struct FailingTransport: HTTPTransport {
  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    Issue.record("a request was sent: \(request.method) \(request.url)")
    throw TransportFailure.other("must not send")
  }
}

/// Client-side validation: every failing field at once, under its name, and no request.
@Suite struct ValidationTests {
  func context(_ provider: ProviderKind, prompter: (any PasswordPrompter)? = nil) -> ShellContext {
    let env =
      provider == .supabase
      ? ["SUPABASE_URL": "https://abcd.supabase.co", "SUPABASE_ANON_KEY": "k"]
      : ["FIREBASE_API_KEY": "k"]
    let context = ShellContext(
      resolver: ConfigResolver(environment: env, paths: Paths(environment: ["HOME": "/nonexistent"]), configFile: nil),
      makeProvider: { target, trace in ProviderFactory.make(target, transport: FailingTransport(), trace: trace) },
      sessionStore: InMemorySessionStore(), environment: env, passwordPrompter: prompter)
    return context
  }

  func run(_ line: String, _ context: ShellContext) async throws -> CommandResult {
    guard case .success(let invocation) = InvocationParser.parse(try WordSplitter.split(line), surface: .script) else {
      throw AuthError(.usage)
    }
    return await CommandRunner().run(invocation, in: context)
  }

  static let rows: [(line: String, fields: [(Field, String, String)])] = [
    (
      "signup",
      [
        (.email, "email_required", "Email is required"), (.password, "password_required", "Password is required"),
        (.name, "name_required", "Name is required"),
      ]
    ),
    (
      "signup not-an-email --name ' ' --password short",
      [
        (.email, "invalid_email", "Invalid email address"),
        (.password, "password_too_short", "Password must be at least 8 characters"),
        (.name, "name_required", "Name is required"),
      ]
    ),
    ("signup a@b.c --name Ada --password 12345678", [(.email, "invalid_email", "Invalid email address")]),
    (
      "signup ada@example.com --name Ada --password \(String(repeating: "x", count: 256))",
      [(.password, "password_too_long", "Password must be at most 255 characters")]
    ),
    ("login --password x", [(.email, "email_required", "Email is required")]),
    (
      "login 'ada@example' --password ''",
      [(.email, "invalid_email", "Invalid email address"), (.password, "password_required", "Password is required")]
    ),
    ("reset ''", [(.email, "email_required", "Email is required")]),
    (
      "reset confirm CODE --password short",
      [(.password, "password_too_short", "Password must be at least 8 characters")]
    ),
  ]

  @Test(arguments: ProviderKind.allCases)
  func fieldsReportedTogetherWithoutRequest(_ provider: ProviderKind) async throws {
    for row in Self.rows {
      let result = try await run(row.line, context(provider))
      let error = try #require(result.error, "\(row.line) should fail")
      #expect(error.code == .validationFailed, "\(row.line)")
      #expect(error.fields.map(\.field) == row.fields.map(\.0), "\(row.line)")
      #expect(error.fields.map(\.code) == row.fields.map(\.1), "\(row.line)")
      #expect(error.fields.map(\.message) == row.fields.map(\.2), "\(row.line)")
      #expect(ExitStatus.oneShot(result) == 1)
    }
  }

  struct Prompter: PasswordPrompter {
    let answers: [String]
    let asked = Guarded(0)
    func readPassword(prompt: String) -> String? {
      let index = asked.next()
      return index < answers.count ? answers[index] : nil
    }
  }

  @Test func mismatchedConfirmationAtThePrompt() async throws {
    // Asked three times, mistyped each time (each miss asks again).
    let answers = Array(repeating: ["correct-horse-1", "correct-horse-2"], count: 3).flatMap { $0 }
    let result = try await run(
      "signup ada@example.com --name Ada", context(.supabase, prompter: Prompter(answers: answers)))
    #expect(result.error?.fields.map(\.code) == ["passwords_mismatch"])
    #expect(result.error?.field(.confirm)?.message == "Passwords do not match")
  }

  @Test func noPasswordSourceWithoutTerminalIsPasswordRequired() async throws {
    let result = try await run("login ada@example.com", context(.supabase))
    #expect(result.error?.code == .passwordRequired)
  }

  @Test func emailRule() {
    for good in [
      "a@b.co", "ada.lovelace+x@mail.example.com", " ada@example.com ", "A_B%c-d@x-y.io", "o'brien@example.com",
      "a!#$&*/=?^`{|}~@b.co",
    ] { #expect(Validator.isValidEmail(good), "\(good)") }
    for bad in [
      "", "a@b", "a@b.c", "@b.co", "a b@c.co", "a\"b@c.co", "a,b@c.co", "a(b)@c.co", "<a>@b.co", "a@b.c0", "a@@b.co",
      "ada@exämple.com", String(repeating: "a", count: 251) + "@b.co",
    ] {
      #expect(!Validator.isValidEmail(bad), "\(bad)")
    }
  }
}
