import AuthCore
import AuthTestSupport
import Foundation
import ShellKit
import Testing

@testable import AuthScript

/// Property test: random token streams and random bytes through lexer → parser → loader (with
/// includes) → checker → renderer, and the interpreter for inputs that check clean. The property is
/// "no crash, every diagnostic renders, every range is inside the file". Bounded by time
/// (`AUTHSH_FUZZ_SECONDS`, default 3) and seeded (`AUTHSH_FUZZ_SEED`) so a failure reproduces.
@Suite struct ParserFuzzTests {
  static let vocabulary: [String] =
    Parser.keywords + CommandTable.all.flatMap(\.words) + CommandTable.all.flatMap { $0.flags.map(\.name) }
    + Predicate.allCases.map(\.rawValue) + QuerySchema.roots + ErrorCode.catalogue.map(\.rawValue) + [
      "not", "ok", "error", "=", "==", "\"", "'", "\\", "{{", "}}", "{{email}}", "{{env.HOME}}", "{{user.id}}",
      "{{ uuid }}", "{{", "{{a.b.c}}", "user.email", "error.fields.password.code", "claims.sub", "notes.0", "42", "-1",
      "1.5e3", "true", "null", "\"text\"", "'single'", "\"unterminated", "a@example.com", "#", "# comment", "x=y",
      "--password", "pw-123456", "include a.auth", "include b.auth", "test \"t\"", "é", "🙂", "\u{0}", "\t", "\r",
      "\u{FEFF}", "\u{301}", "𝔘", "{{}}", "}}{{", "{{{{x}}}}", "\"{{email}}\"",
    ]

  /// Statements that check clean, so the interpreter runs too (the fake backend answers).
  static let validLines: [String] = [
    "let email = \"f-{{uuid}}@example.com\"", "secret pw = \"pw-{{random}}-long\"", "test \"t {{timestamp}}\"",
    "signup {{email}} --name N --password {{pw}}", "login {{email}} --password {{pw}}", "whoami", "logout",
    "expect ok", "expect error invalid_credentials", "expect error not_authenticated", "echo {{email}} {{pw}}",
    "assert user.email == {{email}}", "assert not error exists", "assert output contains \"x\"",
    "assert session.expires_in > 0", "capture uid = user.id", "reset {{email}}", "inbox {{email}}",
    "assert inbox.link startsWith \"http\"", "assert error.fields.email.code == \"invalid_email\"",
    "login not-an-email --password x", "status", "assert output isEmpty", "assert ok == true", "include a.auth",
  ]

  static func randomLine(_ rng: inout SplitMix64) -> String {
    if Bool.random(using: &rng) { return validLines.randomElement(using: &rng) ?? "" }
    if Int.random(in: 0..<10, using: &rng) == 0 {
      // Raw noise: any scalars, including controls and quotes.
      let count = Int.random(in: 0..<40, using: &rng)
      return String(
        String.UnicodeScalarView(
          (0..<count).compactMap { _ in
            Unicode.Scalar(UInt32.random(in: 0..<0x2FF, using: &rng)) ?? "?"
          }))
    }
    let count = Int.random(in: 0..<8, using: &rng)
    return (0..<count).map { _ in vocabulary.randomElement(using: &rng) ?? "" }
      .joined(separator: Bool.random(using: &rng) ? " " : "")
  }

  static func randomFile(_ rng: inout SplitMix64) -> String {
    let lines = Int.random(in: 0..<12, using: &rng)
    return (0..<lines).map { _ in randomLine(&rng) }.joined(
      separator: ["\n", "\r\n", "\r"].randomElement(using: &rng) ?? "\n")
  }

  @Test func randomInputsNeverCrashAndDiagnosticsStayInTheFile() async {
    // A fixed number of inputs, not a time budget, so a loaded machine runs the same test;
    // AUTHSH_FUZZ_SECONDS keeps going for longer runs by hand.
    let seconds = Double(ProcessInfo.processInfo.environment["AUTHSH_FUZZ_SECONDS"] ?? "") ?? 0
    let minimumInputs = 150
    let seed =
      UInt64(ProcessInfo.processInfo.environment["AUTHSH_FUZZ_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
    var rng = SplitMix64(seed: seed)
    let deadline = Date().addingTimeInterval(seconds)
    var inputs = 0
    var clean = 0
    let renderer = DiagnosticRenderer(style: Style(color: true))
    while inputs < minimumInputs || Date() < deadline {
      inputs += 1
      // Any include path may resolve (to a random file) or not.
      let includes = (0..<4).map { _ in Self.randomFile(&rng) }
      let text = Self.randomFile(&rng)
      let loader = ScriptLoader(readFile: { path in
        let slot = abs(path.hashValue % 6)
        guard slot < includes.count else { throw CocoaError(.fileNoSuchFile) }
        return includes[slot]
      })
      let source = SourceFile(name: "fuzz.auth", path: "/fuzz/fuzz.auth", text: text)
      let (program, loadDiagnostics) = loader.load(source)
      let diagnostics = loadDiagnostics + Checker(environment: ["HOME": "/root"]).check(program)
      for diagnostic in diagnostics {
        _ = renderer.render(diagnostic)
        if let range = diagnostic.range, diagnostic.fileName == "fuzz.auth" {
          #expect(
            range.start.line >= 1 && range.start.line <= max(1, source.lines.count),
            "seed \(seed): \(text.debugDescription)")
        }
      }
      if diagnostics.isEmpty, !program.statements.isEmpty {
        clean += 1
        let backend = FakeBackend()
        _ = await Interpreter(program: program, context: makeTestContext(), executor: backend.executor).run()
      }
    }
    print("parser fuzz: \(inputs) inputs (\(clean) checked clean and ran) in \(seconds) s, seed \(seed)")
    #expect(inputs >= minimumInputs)
  }
}
