import AuthCore
import Foundation
import Testing

@testable import ShellKit

/// Issue 11 item 5 in the shell: `use NAME` is an explicit choice and beats the exported
/// `SUPABASE_URL`/`SUPABASE_ANON_KEY`; `status` says the environment was set aside.
@Suite("Repl profiles")
struct ReplProfileTests {
  static let config = """
    [profiles.staging]
    provider = "supabase"
    url = "https://abcd.supabase.co"
    key = "staging-key"
    """

  @Test func useBeatsTheEnvironmentAndStatusSaysSo() async {
    let shell = ReplHarness(["status", "use staging", "status"], config: Self.config)
    #expect(await shell.run() == 0)
    let out = shell.sink.standardOutput
    #expect(out.contains("http://127.0.0.1:9999/auth/v1"), "before `use`, the environment's backend")
    #expect(out.contains("https://abcd.supabase.co/auth/v1"), "after `use staging`, the profile's")
    #expect(out.contains("environment: SUPABASE_URL is set but not used: profile 'staging' was chosen explicitly."))
    #expect(shell.reader.prompts.last == "supabase:staging> ")
  }

  @Test func useWithABrokenConfigSaysWhatIsBroken() async {
    let shell = ReplHarness(["use staging"], config: "[profiles.staging]\nporvider = \"supabase\"\n")
    _ = await shell.run()
    #expect(
      shell.sink.standardError.contains(
        "config.toml:2: unknown key 'porvider' in [profiles.staging]; did you mean 'provider'?"))
  }
}
