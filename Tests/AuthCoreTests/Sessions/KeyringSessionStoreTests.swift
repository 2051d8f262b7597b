import Foundation
import JSONKit
import Testing

@testable import AuthCore

/// The keyring store over a keyring in memory: tokens in the item, the rest in the file;
/// migration of today's files; cleanup; the choice of store by `credential_store`. The real
/// Secret Service is exercised by Tests/python/keyring.
@Suite struct KeyringSessionStoreTests {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "authsh-keyring-\(UUID().uuidString)/sessions"
  ).path
  let keyring = InMemorySecretStore()
  static let key = BackendKey(
    Target(provider: .supabase, profile: "default", url: "https://abcd.supabase.co/auth/v1", key: "k")
  ).canonical
  let key = Self.key

  var files: FileSessionStore { FileSessionStore(directory: directory) }
  var store: KeyringSessionStore { KeyringSessionStore(files: files, keyring: keyring) }
  var item: SecretItem { .session(backend: key, file: files.path(for: key)) }

  func state(_ token: String) -> ProfileState {
    let user = AuthUser(id: "u1", email: "ada@example.com", emailConfirmed: true, provider: "email")
    return ProfileState(
      session: AuthSession(
        accessToken: "access-\(token)", refreshToken: "refresh-\(token)", expiresAt: 1_767_229_200, user: user),
      rememberedEmail: "ada@example.com", backend: key)
  }

  func fileText() throws -> String { try String(contentsOfFile: files.path(for: key), encoding: .utf8) }

  @Test func tokensGoToTheKeyringTheRestToTheFile() throws {
    try store.save(state("1"), profile: key)
    let secret = try #require(keyring.all[item])
    #expect(secret.contains("refresh-1") && secret.contains("access-1"))
    let text = try fileText()
    #expect(!text.contains("refresh-1") && !text.contains("access-1"))
    #expect(
      text.contains("\"tokens_in\": \"keyring\"") && text.contains("ada@example.com") && text.contains("1767229200"))
    #expect(try store.load(profile: key) == state("1"))
  }

  @Test func statusReadsTheFileAloneWithoutTheKeyring() throws {
    try store.save(state("1"), profile: key)
    keyring.setUnavailable("locked")
    let summary = try store.loadSummary(profile: key)
    #expect(summary.session?.user.email == "ada@example.com")
    #expect(summary.session?.expiresAt == 1_767_229_200)
    #expect(summary.session?.refreshToken == "")
    #expect(throws: AuthError.self) { try store.load(profile: key) }
  }

  @Test func todaysFileIsMovedIntoTheKeyringOnFirstUse() throws {
    try files.save(state("old"), profile: key)
    #expect(try fileText().contains("refresh-old"))
    #expect(try store.load(profile: key) == state("old"))
    #expect(keyring.all[item]?.contains("refresh-old") == true)
    let text = try fileText()
    #expect(!text.contains("refresh-old") && !text.contains("access-old"), "secret fields removed: \(text)")
    #expect(try store.load(profile: key) == state("old"))
  }

  @Test func clearingRemovesFileAndItem() throws {
    try store.save(state("1"), profile: key)
    try SessionManager(store: store, profile: key, clock: ManualClock()).save(session: nil)
    #expect(keyring.all.isEmpty)
    #expect(!(try fileText()).contains("tokens_in"), "the remembered e-mail stays, the session goes")
    try store.clear(profile: key)
    #expect(!FileManager.default.fileExists(atPath: files.path(for: key)))
  }

  @Test func anItemWhoseFileIsGoneIsCleanedUp() throws {
    try store.save(state("1"), profile: key)
    try FileManager.default.removeItem(atPath: files.path(for: key))
    #expect(try store.load(profile: key) == ProfileState())
    #expect(keyring.all.isEmpty)
  }

  @Test func aMissingItemMeansNotSignedIn() throws {
    try store.save(state("1"), profile: key)
    _ = try keyring.delete(item)
    let loaded = try store.load(profile: key)
    #expect(loaded.session == nil)
    #expect(loaded.sessionProblem?.code == .notAuthenticated)
  }

  @Test func twoBackendsTwoItems() throws {
    let other = BackendKey(
      Target(
        provider: .firebase, profile: "m", url: "https://identitytoolkit.googleapis.com/v1", key: "k", projectId: "p")
    ).canonical
    try store.save(state("1"), profile: key)
    var second = state("2")
    second.backend = other
    try store.save(second, profile: other)
    #expect(keyring.all.count == 2)
    #expect(try store.load(profile: key) == state("1"))
    #expect(try store.load(profile: other) == second)
  }

  /// `credential_store = "file"` reading a file whose tokens are in the keyring: a clear error,
  /// and a reset hold saved meanwhile does not drop the session's record.
  @Test func theFileStoreLeavesAKeyringSessionAlone() throws {
    try store.save(state("1"), profile: key)
    let plain = files
    plain.keyringAbsence = "credential_store = \"file\""
    let loaded = try plain.load(profile: key)
    let problem = try #require(loaded.sessionProblem)
    #expect(problem.message.contains("keeps its tokens in the keyring"))
    #expect(problem.message.contains("credential_store = \"file\""))
    var changed = loaded
    changed.resetSentAt["x@example.com"] = 1
    try plain.save(changed, profile: key)
    #expect(try store.load(profile: key).session == state("1").session)
  }

  @Test func autoWithoutAKeyringKeepsTheFileAndSaysSoOnce() throws {
    let notices = Guarded<[String]>([])
    let stores = SessionStores(
      directory: directory, keyring: InMemorySecretStore(unavailable: "no D-Bus session bus"),
      notice: { line in notices.update { $0.append(line) } })
    let auto = stores.store(for: CredentialStoreChoice())
    try auto.save(state("1"), profile: key)
    try auto.save(state("2"), profile: key)
    #expect(notices[\.self] == ["no keyring: session kept in \(files.path(for: key)) (0600); no D-Bus session bus"])
    #expect(try fileText().contains("refresh-2"))
    #expect(auto.location(profile: key).kind == .file)
  }

  @Test func keyringWithoutOneFailsNamingWhatIsMissing() throws {
    let stores = SessionStores(
      directory: directory, keyring: InMemorySecretStore(unavailable: "no D-Bus session bus"), notice: { _ in })
    let strict = stores.store(for: CredentialStoreChoice(.keyring, source: "--credential-store"))
    let error = try #require(throws: AuthError.self) { try strict.checkAvailable() }
    #expect(error.code == .configError)
    #expect(error.message.contains("no D-Bus session bus"))
    #expect(error.message.contains("--credential-store"))
    #expect(throws: AuthError.self) { try strict.save(state("1"), profile: key) }
  }

  @Test func autoWithAKeyringUsesIt() throws {
    let stores = SessionStores(
      directory: directory, keyring: keyring, notice: { _ in Issue.record("no notice with a keyring") })
    let auto = stores.store(for: CredentialStoreChoice())
    try auto.save(state("1"), profile: key)
    #expect(keyring.all.count == 1)
    #expect(auto.location(profile: key).kind == .keyring)
    #expect(auto.location(profile: key).unreadable == nil)
    // The file store says where the session is (the keyring) and that it does not read it.
    let file = stores.store(for: CredentialStoreChoice(.file))
    #expect(file.location(profile: key).kind == .keyring)
    #expect(file.location(profile: key).unreadable?.hasPrefix("the keyring is not used here") == true)
  }
}
