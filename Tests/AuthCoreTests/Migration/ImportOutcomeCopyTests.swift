import AuthCore
import AuthTestSupport
import Testing

/// `ImportOutcome` shares its texts between copies until one changes (copy on write, `Shared`): a
/// change to a copy is never seen by the outcome it was copied from, for every field of outcomes
/// of generated accounts, and its report line says what the copy says.
@Suite struct ImportOutcomeCopyTests {
  @Test(arguments: 0..<32) func aChangedCopyLeavesTheOriginalAsItWas(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed))
    let account = FidelityLedgerTests.generated(&random, now: 1_750_000_000)
    var original = ImportOutcome(index: seed, account: account, status: .imported)
    original.losses = [.factorsUnknown]
    let before = original.json
    let changes: [(inout ImportOutcome) -> Void] = [
      { $0.index += 1 }, { $0.status = .failed }, { $0.email = "changed@example.com" }, { $0.sourceId = "changed" },
      { $0.newId = "changed" }, { $0.withoutPassword = "changed" }, { $0.errorCode = "changed" },
      { $0.message = "changed" }, { $0.losses.append(.phone) },
    ]
    for (number, change) in changes.enumerated() {
      var copy = original
      change(&copy)
      #expect(original.json == before, "change \(number) reached the original")
      #expect(copy != original, "change \(number) was lost")
    }
    var rebuilt = ImportOutcome(index: seed, account: account, status: .imported)
    rebuilt.losses = [.factorsUnknown]
    #expect(rebuilt == original, "equal texts are equal without sharing them")
  }
}
