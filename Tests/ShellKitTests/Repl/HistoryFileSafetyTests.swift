import AuthCore
import Foundation
import Testing

@testable import ShellKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 20 items 1 and 2: the history file is never followed through a symbolic link, and a state
/// directory others can write is refused with the fix.
@Suite("History file: links and loose directories")
struct HistoryFileSafetyTests {
  let victimText = "the victim's own words\n"

  func makeVictim(in directory: String) throws -> String {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let victim = directory + "/victim.txt"
    try victimText.write(toFile: victim, atomically: true, encoding: .utf8)
    chmod(victim, 0o644)
    return victim
  }

  func mode(_ path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o777
  }

  @Test func aLinkedHistoryFileLeavesItsTargetUntouched() async throws {
    let shell = ReplHarness(["whoami", "status", "help"])
    let victim = try makeVictim(in: shell.directory + "/elsewhere")
    try FileManager.default.createDirectory(
      atPath: shell.directory + "/state/authsh", withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    #expect(symlink(victim, shell.historyPath) == 0)
    _ = await shell.run()
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == victimText, "byte for byte unchanged")
    #expect(mode(victim) == 0o644, "no chmod through the link")
    #expect(shell.reader.history.first?.line == "whoami", "the link's target was not read as history either")
  }

  @Test func aLinkedTempFileLeavesItsTargetUntouchedWhenTheHistoryIsRewritten() throws {
    let directory = NSTemporaryDirectory() + "authsh-histlink-\(UUID().uuidString)"
    let victim = try makeVictim(in: directory + "/elsewhere")
    let state = directory + "/state/authsh"
    try FileManager.default.createDirectory(
      atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let lines = (1...2_500).map { "status \($0)" }
    try (lines.joined(separator: "\n") + "\n").write(toFile: state + "/history", atomically: false, encoding: .utf8)
    #expect(symlink(victim, state + "/history.tmp") == 0)
    let history = HistoryFile(path: state + "/history", stateDirectory: state)
    #expect(history.load() == Array(lines.suffix(1000)))
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == victimText, "byte for byte unchanged")
    let rewritten = try String(contentsOfFile: state + "/history", encoding: .utf8)
    #expect(rewritten.split(separator: "\n").count == 1000, "the history was still trimmed")
    #expect(mode(state + "/history") == 0o600)
  }

  @Test func aWorldWritableStateDirectoryIsRefusedAndNothingIsWritten() async throws {
    let shell = ReplHarness(["whoami"])
    let state = shell.directory + "/state/authsh"
    try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
    chmod(state, 0o777)
    _ = await shell.run()
    #expect(!FileManager.default.fileExists(atPath: shell.historyPath))
    #expect(
      shell.sink.standardError.contains(
        "Refusing to use authsh's state directory \(state): group or others can write to it (mode 0777)"))
    #expect(shell.sink.standardError.contains("Run: chmod 700 \(state)"))
    #expect(shell.sink.standardError.contains("History is not kept in this session."))
  }

  @Test func aLinkedStateDirectoryIsRefusedWithTheMkdirFix() throws {
    let directory = NSTemporaryDirectory() + "authsh-statelink-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: directory + "/state", withIntermediateDirectories: true)
    #expect(symlink(directory + "/real", directory + "/state/authsh") == 0)
    let history = HistoryFile(path: directory + "/state/authsh/history", stateDirectory: directory + "/state/authsh")
    let error = try #require(throws: AuthError.self) { try history.check() }
    #expect(error.code == .configError)
    #expect(
      error.hint == "Make it a real directory: rm \(directory)/state/authsh && mkdir -m 700 \(directory)/state/authsh")
    history.append("whoami")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/real").isEmpty)
  }
}
