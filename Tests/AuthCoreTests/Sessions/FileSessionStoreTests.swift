import Foundation
import Testing

@testable import AuthCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct FileSessionStoreTests {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "authsh-store-\(UUID().uuidString)/state/authsh/sessions"
  ).path

  static let backend = BackendKey(
    Target(provider: .supabase, profile: "default", url: "https://abcd.supabase.co/auth/v1", key: "k")
  ).canonical
  let key = Self.backend
  var fileName: String { BackendKey.fileStem(key) + ".json" }

  func state(_ token: String) -> ProfileState {
    let user = AuthUser(id: "u1", email: "ada@example.com", emailConfirmed: true, provider: "email")
    return ProfileState(
      session: AuthSession(accessToken: token, refreshToken: "refresh-\(token)", expiresAt: 1_767_229_200, user: user),
      rememberedEmail: "ada@example.com", resetSentAt: ["ada@example.com": 1_767_225_600], backend: key)
  }

  func mode(_ path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o777
  }

  @Test func roundTripWithPrivateModes() throws {
    let store = FileSessionStore(directory: directory)
    try store.save(state("token-1"), profile: key)
    #expect(try store.load(profile: key) == state("token-1"))
    #expect(mode(store.path(for: key)) == 0o600)
    #expect(mode(directory) == 0o700)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [fileName], "no temp files left behind")
  }

  @Test func crashBeforeRenameKeepsTheOldFileWhole() throws {
    try FileSessionStore(directory: directory).save(state("old"), profile: key)
    struct Crash: Error {}
    let crashing = FileSessionStore(directory: directory, beforeRename: { throw Crash() })
    #expect(throws: Crash.self) { try crashing.save(state("new"), profile: key) }
    #expect(try FileSessionStore(directory: directory).load(profile: key) == state("old"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [fileName])
  }

  @Test func interruptedProcessLeavesOldOrNewNeverTorn() throws {
    // A stray temp file from a killed writer (partial content) must not be read or break saving.
    let store = FileSessionStore(directory: directory)
    try store.save(state("old"), profile: key)
    _ = FileManager.default.createFile(
      atPath: store.path(for: key) + ".tmp-999-1", contents: Data("{\"session\":{\"acc".utf8))
    #expect(try store.load(profile: key) == state("old"))
    try store.save(state("new"), profile: key)
    #expect(try store.load(profile: key) == state("new"))
  }

  @Test func looseFileIsRefusedWithAClearMessage() throws {
    let store = FileSessionStore(directory: directory)
    try store.save(state("t"), profile: key)
    chmod(store.path(for: key), 0o644)
    let error = try #require(throws: AuthError.self) { try store.load(profile: key) }
    #expect(error.code == .configError)
    #expect(error.message.contains("readable by group or others (mode 0644)"))
    #expect(error.hint == "Run: chmod 600 \(store.path(for: key))")
  }

  @Test func keysCannotEscapeTheDirectory() {
    let store = FileSessionStore(directory: directory)
    let path = store.path(for: "../../etc/passwd")
    #expect(path.hasPrefix(directory + "/"))
    #expect(!path.dropFirst(directory.count + 1).contains("/"))
    #expect(!path.dropFirst(directory.count + 1).hasPrefix("."))
  }

  @Test func missingFileIsAnEmptyState() throws {
    #expect(try FileSessionStore(directory: directory).load(profile: "nobody") == ProfileState())
  }
}
