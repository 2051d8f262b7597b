import AuthCore
import Testing

/// What identifies a backend (issue 11 item 2): provider + normalized endpoint + Firebase project.
@Suite struct BackendKeyTests {
  func supabase(_ url: String, profile: String = "default") -> BackendKey {
    BackendKey(Target(provider: .supabase, profile: profile, url: Target.supabaseAuthBase(url), key: "anon"))
  }

  func firebase(_ url: String, project: String?, key: String = "api-key") -> BackendKey {
    BackendKey(Target(provider: .firebase, profile: "default", url: url, key: key, projectId: project))
  }

  @Test func sameEndpointSpelledDifferentlyIsOneBackend() {
    let base = supabase("https://abcd.supabase.co")
    #expect(base.canonical == "supabase https://abcd.supabase.co:443/auth/v1")
    #expect(supabase("https://ABCD.supabase.co/").canonical == base.canonical)
    #expect(supabase("https://abcd.supabase.co:443/auth/v1/").canonical == base.canonical)
    #expect(
      supabase("https://abcd.supabase.co", profile: "work").canonical == base.canonical,
      "the profile name does not matter")
  }

  @Test func anyDifferenceInProviderEndpointOrProjectIsAnotherBackend() {
    let keys = [
      supabase("https://abcd.supabase.co"), supabase("http://abcd.supabase.co"),
      supabase("https://abcd.supabase.co:8443"),
      supabase("https://efgh.supabase.co"), supabase("https://abcd.supabase.co/proxy"),
      firebase("https://identitytoolkit.googleapis.com/v1", project: "a"),
      firebase("https://identitytoolkit.googleapis.com/v1", project: "b"),
      firebase("https://identitytoolkit.googleapis.com/v1", project: nil, key: "k1"),
      firebase("https://identitytoolkit.googleapis.com/v1", project: nil, key: "k2"),
      firebase("http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1", project: "a"),
    ]
    #expect(Set(keys.map(\.canonical)).count == keys.count)
    #expect(Set(keys.map { BackendKey.fileStem($0.canonical) }).count == keys.count)
  }

  @Test func fileNamesAreReadableAndCarryNoKey() {
    let stem = BackendKey.fileStem(supabase("https://abcd.supabase.co").canonical)
    #expect(stem.hasPrefix("supabase-abcd.supabase.co-"))
    #expect(stem.count == "supabase-abcd.supabase.co-".count + 8)
    let emulator = firebase("http://127.0.0.1:9099/identitytoolkit.googleapis.com/v1", project: "demo")
    #expect(BackendKey.fileStem(emulator.canonical).hasPrefix("firebase-127.0.0.1-9099-"))
    let keyed = firebase("https://identitytoolkit.googleapis.com/v1", project: nil, key: "AIzaSecretLookingKey")
    #expect(!keyed.canonical.contains("AIzaSecretLookingKey"), "the API key is only hashed")
  }
}
