import AuthCore
import Testing

@testable import ShellKit

@Suite("help topics")
struct HelpTopicsTests {
  func text(_ words: [String], surface: Surfaces = .oneShot) -> String? {
    try? HelpTopics.render(words, surface: surface).get()
  }

  func problem(_ words: [String]) -> String? {
    if case .failure(let problem) = HelpTopics.render(words, surface: .oneShot) { return problem.fullMessage }
    return nil
  }

  @Test func errorsListsEveryCatalogueCodeWithItsExitStatus() throws {
    let listing = try #require(text(["errors"]))
    for code in ErrorCode.catalogue {
      let row = listing.split(separator: "\n").first { $0.split(separator: " ").first.map(String.init) == code.rawValue }
      let line = try #require(row, "missing \(code)")
      #expect(line.split(separator: " ").dropFirst().first.map(String.init) == String(ExitStatus.forError(AuthError(code))))
    }
    #expect(listing.contains(try Regex(#"\n  network_unreachable +3 "#)))
    #expect(listing.contains(try Regex(#"\n  session_expired +4 "#)))
  }

  @Test func aNearMissIsAnErrorNotAShorterCommand() {
    #expect(text(["reset", "confrim"]) == nil)
    #expect(problem(["reset", "confrim"]) == "no help for 'reset confrim'; did you mean 'reset confirm'?")
    #expect(problem(["nosuch"]) == "no help for 'nosuch'; 'help' lists the commands, 'help errors' the error codes")
    #expect(text(["reset", "confirm"])?.hasPrefix("Usage: authsh reset confirm") == true)
  }

  @Test func aliasesShowTheirCommand() {
    for alias in ["signin", "sign-in"] {
      #expect(text([alias])?.hasPrefix("Usage: authsh login") == true)
      #expect(CommandTable.match([alias, "a@b.co"])?.spec.name == "login")
    }
  }

  @Test func shellOnlyCommandsSaySo() {
    #expect(text(["use"])?.contains("Works only in the interactive shell and in .auth scripts") == true)
    #expect(text(["history"])?.contains("Works only in the interactive shell") == true)
    #expect(text(["login"])?.contains("Works only") == false)
  }

  @Test func emulatorHelpListsTheFaultPresetsAndTheFaultsJSON() throws {
    let help = try #require(text(["emulator"]))
    for preset in ["html502", "truncated_json", "drop", "rate_limit", "server_error", "/emulator/v1/faults", "\"faults\":["] {
      #expect(help.contains(preset), "missing \(preset)")
    }
  }

  @Test func choiceSuggestionsAreNearMissesOnly() {
    #expect(Suggest.choice(for: "tcsh", among: ["bash", "zsh", "fish"]) == nil)
    #expect(Suggest.choice(for: "fihs", among: ["bash", "zsh", "fish"]) == "fish")
    #expect(Suggest.choice(for: "supbase", among: ["supabase", "firebase"]) == "supabase")
  }
}
