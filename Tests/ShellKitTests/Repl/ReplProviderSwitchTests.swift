import AuthCore
import Foundation
import Testing

@testable import ShellKit

@Suite("Shell: a provider switch that cannot work is refused")
struct ReplProviderSwitchTests {
  @Test func aFailedProviderSwitchKeepsThePreviousProvider() async throws {
    // Supabase is configured; Firebase has no API key or project here.
    let shell = ReplHarness(["provider firebase", "status"])
    #expect(shell.repl.prompt().hasPrefix("supabase:"))
    _ = await shell.run()
    #expect(shell.sink.standardError.contains("error:"), "\(shell.sink.standardError)")
    #expect(shell.sink.standardError.contains("The shell still uses supabase:"), "\(shell.sink.standardError)")
    #expect(shell.repl.prompt().hasPrefix("supabase:"), "the shell still has its provider")
    #expect(shell.sink.standardOutput.contains("provider  supabase"), "\(shell.sink.standardOutput)")
    #expect(try shell.context.target().provider == .supabase)
  }

  @Test func aFailedUseKeepsThePreviousProfile() async throws {
    let config = """
      [profiles.broken]
      provider = "firebase"

      """
    let shell = ReplHarness(["use broken", "status"], config: config)
    _ = await shell.run()
    #expect(try shell.context.target().provider == .supabase, "\(shell.sink.combined)")
  }
}
