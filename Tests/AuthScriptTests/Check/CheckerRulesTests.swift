import Foundation
import Testing

@testable import AuthScript

@Suite struct CheckerRulesTests {
  func titlesAndNotes(_ text: String, environment: [String: String] = [:]) -> [String] {
    diagnose(text, environment: environment).map { $0.title + " | " + ($0.note ?? "") }
  }

  @Test func duplicateTestNamesAreAnError() {
    #expect(
      titlesAndNotes("test \"a\"\necho x\ntest \"b\"\necho y\ntest \"a\"\necho z\n") == [
        "duplicate test name \"a\" | the first test with this name is on line 1"
      ])
  }

  @Test func comparisonsThatCanNeverHold() {
    #expect(
      titlesAndNotes("whoami\nassert elapsed_ms > \"0\"\n") == [
        "'>' compares numbers, but \"0\" is a string | write 0 without quotes"
      ])
    #expect(
      titlesAndNotes("whoami\nassert user.email_confirmed == \"true\"\n") == [
        "'user.email_confirmed' is a boolean, so it never equals the string \"true\" | write true without quotes"
      ])
    #expect(
      titlesAndNotes("whoami\nassert elapsed_ms > 0\nassert user.email == \"a@b.co\"\nassert user.id == {{user.id}}\n")
        .isEmpty)
  }

  @Test func durationsAreReadBeforeTheRun() {
    #expect(
      titlesAndNotes("sleep 2x\n") == [
        "sleep takes a duration up to 24h such as 2s or 500ms, not '2x' | usage: sleep DURATION"
      ])
    #expect(
      titlesAndNotes("whoami --timeout forever\n").first?.hasPrefix(
        "--timeout takes a duration up to 24h such as 30s or 2m, not 'forever'") == true)
    #expect(
      titlesAndNotes("whoami --timeout=3q\n").first?.hasPrefix(
        "--timeout takes a duration up to 24h such as 30s or 2m, not '3q'") == true)
    #expect(titlesAndNotes("let t = \"2s\"\nsleep 500ms\nsleep {{t}}\nwhoami --timeout 5s\n").isEmpty)
  }

  @Test func aMisspeltKeywordIsSuggested() {
    #expect(titlesAndNotes("whoami\nasert ok == true\n") == ["unknown command 'asert' | did you mean 'assert'?"])
    #expect(titlesAndNotes("whoami\ncaptur x = user.id\n") == ["unknown command 'captur' | did you mean 'capture'?"])
  }

  @Test func theVariableHintsTellTheTruth() {
    let env = titlesAndNotes("echo {{env.NOT_SET_HERE}}\n")
    #expect(
      env == [
        "environment variable 'NOT_SET_HERE' is not set | export NOT_SET_HERE=… before the run ({{env.NAME}} reads only the environment; --var NAME=… sets {{NAME}})"
      ])
    #expect(
      titlesAndNotes("echo {{zzqq}}\n") == [
        "undefined variable 'zzqq' | define it with let, secret or capture, or pass --var zzqq=VALUE (or set AUTHSH_VAR_zzqq)"
      ])
  }

  @Test func sourceIsInclude() {
    #expect(diagnose("source lib.auth\n", files: ["lib.auth": "echo hi\n"]).isEmpty)
  }
}

@Suite struct ContinuationTests {
  @Test func aTrailingBackslashJoinsTheNextLine() {
    let (lines, diagnostics) = Lexer.lex(
      SourceFile(name: "t.auth", text: "signup a@b.co \\\n  --name \"A B\" \\\n  --password-env PW\nwhoami\n"))
    #expect(diagnostics.isEmpty)
    #expect(lines.map(\.number) == [1, 4])
    #expect(lines[0].tokens.map(\.text) == ["signup", "a@b.co", "--name", "A B", "--password-env", "PW"])
    // Each word keeps its own physical line and column, for carets.
    #expect(lines[0].tokens[2].range == SourceRange(line: 2, offsets: 2, 8))
    #expect(lines[0].tokens[5].range == SourceRange(line: 3, offsets: 17, 19))
  }

  @Test func aCommentOrAnEscapedBackslashDoesNotContinue() {
    let (lines, _) = Lexer.lex(SourceFile(name: "t.auth", text: "# note \\\nwhoami\necho a\\\\\nstatus\n"))
    #expect(lines.map(\.number) == [2, 3, 4])
  }
}

@Suite struct ScriptFilesTests {
  @Test func aDirectoryOrAMissingFileSaysSo() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-dir-\(UUID().uuidString)")
      .path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    #expect(throws: ScriptReadError.self) { try ScriptLoader.readFromDisk(directory) }
    do {
      _ = try ScriptLoader.readFromDisk(directory)
    } catch {
      #expect(ScriptReadError.reason(of: error) == "is a directory; name the scripts in it, e.g. \(directory)/*.auth")
    }
    do {
      _ = try ScriptLoader.readFromDisk(directory + "/missing.auth")
    } catch {
      #expect(ScriptReadError.reason(of: error) == "no such file")
    }
  }

  @Test func reportDirectoriesAreCreatedOrTheRunStopsFirst() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-reports-\(UUID().uuidString)").path
    let options = RunOptions(reportJUnit: root + "/a/b/junit.xml", reportJSON: root + "/c/report.json")
    #expect(options.prepareReportPaths() == nil)
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: root + "/a/b", isDirectory: &isDirectory) && isDirectory.boolValue)
    let directory = RunOptions(reportTAP: root + "/a")
    #expect(directory.prepareReportPaths()?.hasPrefix("--report-tap \(root)/a is a directory") == true)
    try "x".write(toFile: root + "/file", atomically: true, encoding: .utf8)
    let underAFile = RunOptions(reportTAP: root + "/file/out.tap")
    #expect(underAFile.prepareReportPaths() == "--report-tap \(root)/file/out.tap: \(root)/file is not a directory")
  }
}
