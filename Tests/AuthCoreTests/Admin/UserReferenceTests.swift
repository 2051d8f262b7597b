import AuthCore
import Testing

@Suite struct UserReferenceTests {
  @Test(arguments: [
    ("+15551234567", "+15551234567"), ("+1 555 123-4567", "+15551234567"), ("+1 (555) 123.4567", "+15551234567"),
    ("+44 20 7946 0958", "+442079460958"),
  ])
  func anE164NumberIsAPhoneReferenceOnBothBackends(_ typed: String, _ number: String) {
    for kind in ProviderKind.allCases {
      #expect(UserReference.parse(typed, for: kind) == .phone(number))
    }
  }

  @Test(arguments: ["15551234567", "+0123456", "+1", "+1234567890123456", "+1555abc", "+"])
  func aNumberWithoutPlusOrOutsideE164IsNoPhone(_ typed: String) {
    #expect(UserReference.e164(typed) == nil)
  }

  @Test func supabaseIdsAreUUIDs() {
    #expect(UserReference.parse("00000000-0000-4000-8000-00000000a11e", for: .supabase) != nil)
    #expect(UserReference.parse("000000000000400080000000000a11e0", for: .supabase) != nil)
    for text in ["ada", "Ada Lovelace", "id-7", "15551234567", "Zp0p4dJqRBaGf3yRqvQW1QqAvlx2"] {
      #expect(UserReference.parse(text, for: .supabase) == nil, "\(text)")
    }
  }

  @Test func firebaseIdsAreTokensExceptShortWordsOfLetters() {
    // Generated (28 alphanumerics, also without a digit), imported (numeric, with punctuation).
    for id in [
      "Zp0p4dJqRBaGf3yRqvQW1QqAvlx2", "ZpApAdJqRBaGfRyRqvQWQqAvlxBC", "15551234567", "auth0|5f7c8ec7c33c6c004bbafe82",
      "legacy-user-17", "ada_lovelace", "00000000-0000-4000-8000-00000000a11e",
    ] {
      #expect(UserReference.parse(id, for: .firebase) == .id(id), "\(id)")
    }
    for text in ["ada", "Lovelace", "Ada Lovelace", "ada?", String(repeating: "a1", count: 65)] {
      #expect(UserReference.parse(text, for: .firebase) == nil, "\(text)")
    }
  }

  @Test func theRefusalIsAUsageErrorNamingTheSearch() {
    let refusal = UserReference.refusal("Ada Lovelace", for: .supabase)
    #expect(refusal.code == .usage)
    #expect(
      refusal.message
        == "'Ada Lovelace' is not an e-mail address, a user id (a UUID) or an E.164 phone number (+15551234567); nothing was sent. To search names and addresses: authsh user list --filter 'Ada Lovelace'"
    )
  }
}
