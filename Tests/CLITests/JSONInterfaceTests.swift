import AuthEmulator
import AuthTestSupport
import Foundation
import JSONKit
import Testing

/// `--json` is an interface: a schema number, the same names on both backends, claims only when
/// asked for, and mailed links whose secret is masked but whose public `apiKey` is kept.
@Suite(.serialized) struct JSONInterfaceTests {
  /// A line that does not parse fails with the same object on standard output (exit 64), and a
  /// password typed where no argument goes is not repeated in it or on standard error.
  @Test func aUsageErrorIsAFailedResultToo() async throws {
    let runner = try BinaryRunner()
    for (args, command, message) in [
      (
        ["login", "--pasword", "x", "--json"], "login",
        "unknown flag '--pasword' for 'login'; did you mean '--password'?"
      ),
      (["frobnicate", "--json"], "authsh", "unknown command 'frobnicate'"),
      // A bad output flag before the command word is the command's usage error, as JSON too.
      (
        ["--json", "--color", "sometimes", "whoami"], "whoami",
        "--color must be one of auto, always, never, not 'sometimes'"
      ),
      (["version", "--json"], "version", "--json cannot be used with 'version' here"),
      (["login", "ada@example.com", "Hunter2-Secret", "--json"], "login", "unexpected argument '***' for 'login'"),
    ] {
      let outcome = try await runner.run(args, timeout: 30)
      #expect(outcome.status == 64)
      let failed = try JSON.parse(outcome.stdout)
      #expect(failed["ok"] == false && failed["command"]?.string == command)
      #expect(failed["error"]?["code"] == "usage_error" && failed["error"]?["message"]?.string == message)
      #expect(!outcome.combined.contains("Hunter2-Secret"))
    }
    #expect(
      try await runner.run(["frobnicate"], timeout: 30).stdout.isEmpty, "without --json, nothing on standard output")
  }

  @Test(arguments: ["supabase", "firebase"])
  func bothBackendsSayTheSameThings(_ provider: String) async throws {
    try await withStarted(CLIEmulator(provider: provider)) { cli in
      let email = "json+\(provider)@example.com"
      let signup = try await cli.authsh("signup", email, "--name", "Jay", "--password-env", "AUTHSH_TEST_PW", "--json")
      #expect(signup.status == 0)
      let signedUp = try JSON.parse(signup.stdout)
      #expect(signedUp["schema"]?.int == 1)
      #expect(signedUp["confirmation_required"]?.bool == false)
      #expect(signedUp["session"]?["token_type"]?.string == "bearer")
      #expect(signedUp["user"]?["provider"]?.string == "password")
      #expect(signedUp["user"]?["provider_id"]?.string == (provider == "supabase" ? "email" : "password"))
      #expect(signedUp["claims"] == nil, "claims only with --claims")

      let login = try JSON.parse(
        try await cli.authsh("login", email, "--password-env", "AUTHSH_TEST_PW", "--json").stdout)
      #expect(login["schema"]?.int == 1)
      #expect(login["claims"] == nil)
      #expect(login["confirmation_required"] == nil, "only signup says it")
      let whoami = try JSON.parse(try await cli.authsh("whoami", "--json").stdout)
      #expect(whoami["claims"] == nil)
      #expect(whoami["user"]?["provider"]?.string == "password")
      let claims = try JSON.parse(try await cli.authsh("whoami", "--claims", "--json").stdout)
      #expect(claims["claims"]?["email"]?.string == email)
      let human = try await cli.authsh("whoami")
      #expect(
        human.stdout.split(separator: "\n").contains { $0.hasPrefix("provider ") && $0.hasSuffix(" password") },
        "\(human.stdout)")

      let failed = try JSON.parse(
        try await cli.authsh("login", email, "--password", "not-the-password", "--json").stdout)
      #expect(failed["schema"]?.int == 1)
      #expect(failed["ok"]?.bool == false)
    }
  }

  @Test func signupThatNeedsConfirmationSaysSo() async throws {
    try await withStarted(CLIEmulator(provider: "supabase") { $0.confirmEmail = true }) { cli in
      let outcome = try await cli.authsh(
        "signup", "confirm@example.com", "--name", "C", "--password-env", "AUTHSH_TEST_PW", "--json")
      #expect(outcome.status == 0)
      let json = try JSON.parse(outcome.stdout)
      #expect(json["confirmation_required"]?.bool == true)
      #expect(json["session"] == nil)
    }
  }

  @Test(arguments: ["supabase", "firebase"])
  func inboxMasksTheLinkSecretAndKeepsTheAPIKey(_ provider: String) async throws {
    try await withStarted(CLIEmulator(provider: provider)) { cli in
      // The key authsh is given (a secret to its redactor) is the one the emulator puts in links.
      let apiKey = cli.emulator.config.firebaseAPIKey
      if provider == "firebase" { cli.runner.environment["FIREBASE_API_KEY"] = apiKey }
      let email = "inbox+\(provider)@example.com"
      #expect(try await cli.authsh("signup", email, "--name", "In", "--password-env", "AUTHSH_TEST_PW").status == 0)
      #expect(try await cli.authsh("reset", email).status == 0)
      let secretParameter = provider == "supabase" ? "token=" : "oobCode="

      let shown = try JSON.parse(try await cli.authsh("inbox", email, "--json", "--show-tokens").stdout)
      let link = shown["inbox"]?["link"]?.string ?? ""
      let code = shown["inbox"]?["code"]?.string ?? ""
      let secret = String(
        link.split(separator: "&").first { $0.contains(secretParameter) }?.split(separator: "=").last ?? "")
      #expect(secret.count > 8 && !secret.contains("*"), "--show-tokens prints the link whole: \(link)")
      #expect(code.count >= 6 && code != "***")

      let json = try await cli.authsh("inbox", email, "--json")
      let masked = try JSON.parse(json.stdout)["inbox"]
      #expect(masked?["code"]?.string == "***")
      #expect(masked?["link"]?.string?.contains(secretParameter + "***") == true, "\(json.stdout)")
      let human = try await cli.authsh("inbox", email)
      #expect(human.status == 0)
      #expect(human.stdout.contains(secretParameter + "***"), "\(human.stdout)")
      for output in [json.stdout, human.stdout] {
        #expect(!output.contains(secret))
        #expect(!output.contains(code))
        if provider == "firebase" {
          #expect(output.contains("apiKey=" + apiKey), "a Web API key is public; the link needs it: \(output)")
        }
      }
    }
  }
}
