import AuthCore
import AuthTestSupport
import JSONKit
import Testing

/// `PortableAccount` shares its fields between copies until one changes (copy on write): a change
/// to a copy is never seen by the value it was copied from, for every field of generated accounts.
@Suite struct PortableAccountCopyTests {
  @Test(arguments: 0..<64) func aChangedCopyLeavesTheOriginalAsItWas(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed))
    let original = FidelityLedgerTests.generated(&random, now: 1_750_000_000)
    let before = original.json
    let changes: [(inout PortableAccount) -> Void] = [
      { $0.id = "changed" }, { $0.email = "changed@example.com" }, { $0.emailVerified = $0.emailVerified != true },
      { $0.phone = "+15550000000" }, { $0.displayName = "changed" }, { $0.disabled = $0.disabled != true },
      { $0.bannedUntil = "2030-01-01T00:00:00Z" }, { $0.createdAt = "changed" }, { $0.lastSignInAt = "changed" },
      { $0.userMetadata = ($0.userMetadata ?? JSONObject()).merging("changed") },
      { $0.appMetadata = ($0.appMetadata ?? JSONObject()).merging("changed") }, { $0.providers.append("changed") },
      { $0.identities = ($0.identities ?? []) + [PortableIdentity(provider: "changed", id: nil, email: nil)] },
      { $0.factors = ($0.factors ?? []) + [PortableFactor(id: "changed", type: "totp", friendlyName: nil)] },
      { $0.source = "changed" }, { $0.passwordHash = "changed" }, { $0.passwordNote = "changed" },
      { $0.phoneConfirmed = $0.phoneConfirmed != true }, { $0.photoURL = "changed" }, { $0.invitedAt = "changed" },
    ]
    for (number, change) in changes.enumerated() {
      var copy = original
      change(&copy)
      #expect(original.json == before, "change \(number) reached the original")
      #expect(copy != original, "change \(number) was lost")
    }
    // Equal values are equal whether or not they share their fields.
    let copy = original
    var rebuilt = PortableAccount()
    rebuilt.id = "x"
    rebuilt = original
    rebuilt.id = original.id
    #expect(copy == original && rebuilt == original)
  }
}

extension JSONObject {
  fileprivate func merging(_ key: String) -> JSONObject {
    var object = self
    object[key] = .bool(true)
    return object
  }
}
