import Foundation
import JSONKit
import Testing

@testable import AuthCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 12 item 12: the sessions directory and files are checked as ssh checks ~/.ssh.
@Suite struct FileSessionStoreChecksTests {
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-checks-\(UUID().uuidString)").path
  var directory: String { root + "/state/authsh/sessions" }
  let key = BackendKey(Target(provider: .supabase, profile: "p", url: "https://abcd.supabase.co", key: "k")).canonical

  func signedIn() -> ProfileState {
    let user = AuthUser(id: "u1", email: "ada@example.com", emailConfirmed: true, provider: "email")
    return ProfileState(
      session: AuthSession(accessToken: "access", refreshToken: "refresh", expiresAt: 1_767_229_200, user: user),
      backend: key)
  }

  func mode(_ path: String) -> mode_t {
    var info = stat()
    lstat(path, &info)
    return info.st_mode & 0o777
  }

  @Test(arguments: [0o770 as mode_t, 0o707, 0o777, 0o1777])
  func writableDirectoryIsRefused(_ loose: mode_t) throws {
    let store = FileSessionStore(directory: directory)
    try store.save(signedIn(), profile: key)
    chmod(directory, loose)
    for action in [{ _ = try store.load(profile: key) }, { try store.save(signedIn(), profile: key) }] {
      let error = try #require(throws: AuthError.self) { try action() }
      #expect(error.code == .configError)
      #expect(
        error.message.contains("Refusing to use the sessions directory \(directory): group or others can write to it"))
      #expect(error.hint == "Run: chmod 700 \(directory)")
    }
  }

  @Test func readableDirectoryIsTightened() throws {
    let store = FileSessionStore(directory: directory)
    try store.save(signedIn(), profile: key)
    chmod(directory, 0o755)
    #expect(try store.load(profile: key) == signedIn())
    #expect(mode(directory) == 0o700)
  }

  @Test func symlinkedDirectoryIsRefused() throws {
    let real = root + "/elsewhere"
    try FileManager.default.createDirectory(
      atPath: real, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    try FileManager.default.createDirectory(atPath: root + "/state/authsh", withIntermediateDirectories: true)
    #expect(symlink(real, directory) == 0)
    let store = FileSessionStore(directory: directory)
    let error = try #require(throws: AuthError.self) { try store.save(signedIn(), profile: key) }
    #expect(error.message == "Refusing to use the sessions directory \(directory): it is a symbolic link.")
    #expect(error.hint == "Make it a real directory: rm \(directory) && mkdir -m 700 \(directory)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: real).isEmpty, "nothing written through the link")
    #expect(throws: AuthError.self) { try store.load(profile: key) }
  }

  // chown to another user needs root: these run in the root pass of scripts/test.sh.
  @Test(.enabled(if: geteuid() == 0, "chown to another user needs root"))
  func directoryOwnedBySomeoneElseIsRefused() throws {
    let store = FileSessionStore(directory: directory)
    try store.save(signedIn(), profile: key)
    #expect(chown(directory, 65534, 65534) == 0)
    let error = try #require(throws: AuthError.self) { try store.load(profile: key) }
    #expect(
      error.message
        == "Refusing to use the sessions directory \(directory): it is owned by uid 65534, not by you (uid 0).")
    #expect(error.hint?.contains("chown 0 \(directory)") == true)
  }

  @Test(.enabled(if: geteuid() == 0, "chown to another user needs root"))
  func sessionFileOwnedBySomeoneElseIsRefused() throws {
    let store = FileSessionStore(directory: directory)
    try store.save(signedIn(), profile: key)
    let path = store.path(for: key)
    #expect(chown(path, 65534, 65534) == 0)
    let error = try #require(throws: AuthError.self) { try store.load(profile: key) }
    #expect(error.message == "Refusing to use \(path): it is owned by uid 65534, not by you (uid 0).")
  }

  @Test func symlinkedSessionFileIsNotFollowed() throws {
    let store = FileSessionStore(directory: directory)
    try store.save(signedIn(), profile: key)
    let path = store.path(for: key)
    let elsewhere = root + "/planted.json"
    try FileManager.default.moveItem(atPath: path, toPath: elsewhere)
    #expect(symlink(elsewhere, path) == 0)
    let error = try #require(throws: AuthError.self) { try store.load(profile: key) }
    #expect(error.message == "Refusing to use \(path): it is a symbolic link.")
    #expect(error.hint == "Remove it and log in again: rm \(path)")
    // Saving replaces the link itself; the file it pointed at is untouched.
    let before = try Data(contentsOf: URL(fileURLWithPath: elsewhere))
    var next = signedIn()
    next.rememberedEmail = "bo@example.com"
    try store.save(next, profile: key)
    #expect(try Data(contentsOf: URL(fileURLWithPath: elsewhere)) == before)
    #expect(try store.load(profile: key) == next)
  }

  @Test func fileThatIsNotRegularIsRefused() throws {
    let store = FileSessionStore(directory: directory)
    try store.save(signedIn(), profile: key)
    let path = store.path(for: key)
    unlink(path)
    #expect(mkfifo(path, 0o600) == 0)
    let error = try #require(throws: AuthError.self) { try store.load(profile: key) }
    #expect(error.message == "Refusing to use \(path): it is not a regular file.")
  }

  @Test func fileWithoutItsBackendIsNotTrusted() throws {
    let store = FileSessionStore(directory: directory)
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var old = signedIn()
    old.backend = nil
    #expect(
      FileManager.default.createFile(
        atPath: store.path(for: key), contents: Data(old.json.prettyText.utf8), attributes: [.posixPermissions: 0o600]))
    #expect(try store.load(profile: key).backend == "")
  }
}
