import Foundation
import Testing

@testable import AuthCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 20 item 2: `$XDG_STATE_HOME/authsh` and the directory above it are checked as ssh checks
/// `~/.ssh`, with the same rules and fixes as the sessions directory.
@Suite struct PrivateDirectoryTests {
  let root = NSTemporaryDirectory() + "authsh-private-\(UUID().uuidString)"
  var state: String { root + "/state/authsh" }

  func mode(_ path: String) -> mode_t {
    var info = stat()
    lstat(path, &info)
    return info.st_mode & 0o7777
  }

  @Test func aMissingStateDirectoryIsCreated0700() throws {
    #expect(try StateDirectory.check(state, create: false) == false)
    #expect(try StateDirectory.check(state, create: true))
    #expect(mode(state) == 0o700)
  }

  @Test(arguments: [0o777 as mode_t, 0o770, 0o722])
  func aStateDirectoryOthersCanWriteIsRefused(_ loose: mode_t) throws {
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    chmod(state, loose)
    let error = try #require(throws: AuthError.self) { try StateDirectory.check(state, create: true) }
    #expect(error.code == .configError)
    #expect(
      error.message.hasPrefix("Refusing to use authsh's state directory \(state): group or others can write to it"))
    #expect(error.hint == "Run: chmod 700 \(state)")
  }

  @Test func aStateHomeOthersCanWriteIsRefusedUnlessSticky() throws {
    try FileManager.default.createDirectory(atPath: root + "/state", withIntermediateDirectories: true)
    chmod(root + "/state", 0o777)
    let error = try #require(throws: AuthError.self) { try StateDirectory.check(state, create: true) }
    #expect(error.code == .configError)
    #expect(error.hint == "Run: chmod go-w \(root)/state")
    #expect(!FileManager.default.fileExists(atPath: state), "nothing created in it")
    chmod(root + "/state", 0o1777)
    #expect(try StateDirectory.check(state, create: true))
    #expect(mode(state) == 0o700)
  }

  @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
  func someoneElsesStateDirectoryIsRefused() throws {
    try FileManager.default.createDirectory(
      atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    #expect(chown(state, 65534, 65534) == 0)
    let error = try #require(throws: AuthError.self) { try StateDirectory.check(state, create: true) }
    #expect(
      error.message
        == "Refusing to use authsh's state directory \(state): it is owned by uid 65534, not by you (uid 0).")
  }

  @Test func theSessionStoreChecksTheStateDirectoryFirst() throws {
    try FileManager.default.createDirectory(
      atPath: state + "/sessions", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    chmod(state, 0o777)
    let store = FileSessionStore(directory: state + "/sessions", stateDirectory: state)
    let key = BackendKey(Target(provider: .supabase, profile: "p", url: "https://abcd.supabase.co", key: "k")).canonical
    let error = try #require(throws: AuthError.self) { try store.load(profile: key) }
    #expect(error.code == .configError)
    #expect(error.hint == "Run: chmod 700 \(state)")
  }
}
