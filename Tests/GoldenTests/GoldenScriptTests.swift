import Foundation
import Testing

/// Every case of `Scripts/` through the built binary, `authsh --provider P run --emulator CASE`,
/// once per provider, from the `Scripts/` directory (so messages name `ok/x.auth`).
/// `AUTHSH_RECORD=1` rewrites the sidecars: shared ones from Supabase's run, and a
/// `<case>.firebase.*` sidecar only where Firebase's output differs.
@Suite(.serialized) struct GoldenScriptTests {
  static let record = ProcessInfo.processInfo.environment["AUTHSH_RECORD"] == "1"
  /// For scripts that read `{{env.GOLDEN_PASSWORD}}`.
  static let environment = ["GOLDEN_PASSWORD": "golden-secret-pw-1"]
  /// Secrets and private text the cases hold; no output may show them.
  static let forbidden = [
    "golden-secret-pw-1", "known-pw-123", "known-secret-77", "FIRST-LINE-OF-A-PRIVATE-FILE", "xq7",
  ]

  @Test(arguments: GoldenCase.all())
  func golden(_ golden: GoldenCase) throws {
    try #require(
      FileManager.default.isExecutableFile(atPath: AuthshProcess.binary.path), "build authsh first: swift build")
    for provider in GoldenCase.providers {
      let arguments = ["--provider", provider, "run", "--emulator", golden.relativePath] + golden.extraArguments
      let outcome = try AuthshProcess.run(arguments, in: GoldenCase.scriptsDirectory, environment: Self.environment)
      if Self.record {
        try recordSidecars(golden, provider: provider, outcome: outcome)
        continue
      }
      let expectedExit =
        Int32(golden.read("exit", provider: provider)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "0") ?? 0
      #expect(
        outcome.status == expectedExit, "\(golden.relativePath) [\(provider)] exit\n\(outcome.stdout)\(outcome.stderr)")
      if let problem = golden.mismatch("out", actual: outcome.stdout, provider: provider) {
        Issue.record("[\(provider)] \(problem)")
      }
      if let problem = golden.mismatch("err", actual: outcome.stderr, provider: provider) {
        Issue.record("[\(provider)] \(problem)")
      }
      for secret in Self.forbidden {
        #expect(!(outcome.stdout + outcome.stderr).contains(secret), "\(secret) leaked [\(provider)]")
      }
    }
  }

  /// A case whose sidecar is gone fails instead of passing whatever it prints.
  @Test func everyCaseHasItsSidecarsAndAMissingOneFails() {
    for golden in GoldenCase.all() {
      #expect(golden.missingSidecars.isEmpty, "\(golden.relativePath) lacks \(golden.missingSidecars)")
    }
    let orphan = GoldenCase(folder: "failed", name: "no-such-case")
    #expect(orphan.missingSidecars == ["out", "err", "exit"])
    #expect(orphan.mismatch("out", actual: "anything", provider: "supabase") != nil)
  }

  @Test func theCorpusCoversEveryOutcomeFolder() {
    let folders = Set(GoldenCase.all().map(\.folder))
    #expect(folders == Set(GoldenCase.folders))
  }

  /// Rewrites only what no longer fits, so hand-written `~~~` patterns survive a re-record.
  func recordSidecars(_ golden: GoldenCase, provider: String, outcome: AuthshProcess.Outcome) throws {
    let first = provider == GoldenCase.providers[0]
    let exitText = golden.read("exit", provider: provider)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "0"
    if exitText != "\(outcome.status)" {
      try? FileManager.default.removeItem(at: golden.sidecar(first ? "exit" : "\(provider).exit"))
      let shared = golden.read("exit", provider: "")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "0"
      if first || shared != "\(outcome.status)" {
        try "\(outcome.status)\n".write(
          to: golden.sidecar(first ? "exit" : "\(provider).exit"), atomically: true, encoding: .utf8)
      }
    }
    for (stream, raw) in [("out", outcome.stdout), ("err", outcome.stderr)] {
      if golden.mismatch(stream, actual: raw, provider: provider) == nil,
        golden.hasExpectation(stream, provider: provider)
      {
        continue
      }
      let prefix = first ? "" : "\(provider)."
      for suffix in [stream, stream + ".pattern"] {
        try? FileManager.default.removeItem(at: golden.sidecar(prefix + suffix))
      }
      if !first, golden.mismatch(stream, actual: raw, provider: provider) == nil { continue }
      let normalized = GoldenCase.normalize(raw)
      let suffix = normalized == raw ? stream : stream + ".pattern"
      try normalized.write(to: golden.sidecar(prefix + suffix), atomically: true, encoding: .utf8)
    }
  }
}
