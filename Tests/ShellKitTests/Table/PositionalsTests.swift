import AuthCore
import ShellKit
import Testing

/// Positionals read through their keys, decoded once when the line was parsed.
@Suite struct PositionalsTests {
  static func parse(_ line: String, _ surface: Surfaces = .script) throws -> Invocation {
    try InvocationParser.parse(try WordSplitter.split(line), surface: surface).get()
  }

  @Test func aDurationIsDecodedWhenTheLineIsParsed() throws {
    let sleep = try Self.parse("sleep 500ms")
    #expect(sleep[.sleepDuration] == 0.5)
    #expect(sleep.arguments["DURATION"] == .seconds(0.5, "500ms"))
    // A hole stays text until it is filled in; the handler never sees it unfilled.
    #expect(try Self.parse("sleep {{pause}}")[.sleepDuration] == nil)
  }

  @Test func valuesReadAsTheirTypes() throws {
    #expect(try Self.parse("provider firebase")[.providerKind] == .firebase)
    #expect(
      try Self.parse("user show a@example.com b@example.com", .oneShot).all(.lookupUsers) == [
        "a@example.com", "b@example.com",
      ])
    let change = try Self.parse("user set-email a@example.com b@example.com", .oneShot)
    #expect(change[.user] == "a@example.com" && change[.newEmail] == "b@example.com")
    #expect(try Self.parse("login", .oneShot)[.accountEmail] == nil)
  }

  @Test func theRowListsItsKeys() {
    #expect(CommandTable.spec(.sleep).arguments == [ArgumentKey.sleepDuration.spec])
    #expect(CommandTable.spec(.userSetPassword).arguments == [ArgumentKey.user.spec])
  }
}
