import AuthCore
import Foundation
import JSONKit
import ShellKit
import Testing

/// The safety rails of admin commands: readonly profiles, confirmation, the audit line.
@Suite struct SupportGuardTests {
  struct Answer: LinePrompter {
    let text: String?
    func readLine(prompt: String) -> String? { text }
  }

  let ada = AdminUser(id: "u1", email: "Ada@Example.com", confirmed: true)

  func setting(readonly: Bool = false, _ command: [String], flags: [String: [FlagValue]] = [:], answer: Answer? = nil)
    -> (SupportGuard, MemoryAuditLog)
  {
    let environment = ["SUPABASE_URL": "http://127.0.0.1:9999", "SUPABASE_ANON_KEY": "anon", "HOME": "/nonexistent"]
    let log = MemoryAuditLog()
    let context = ShellContext(
      resolver: ConfigResolver(environment: environment, paths: Paths(environment: environment), configFile: nil),
      services: ShellServices(
        makeProvider: { _, _ in fatalError("the guard never makes a provider") }, sessionStore: InMemorySessionStore(),
        auditLog: log, linePrompter: answer))
    var target = Target(provider: .supabase, profile: "prod", url: "http://127.0.0.1:9999/auth/v1", key: "anon")
    target.readonly = readonly
    let spec = CommandTable.match(command)?.spec
    let invocation = Invocation(spec: spec ?? CommandTable.all[0], flags: flags)
    return (SupportGuard(invocation: invocation, context: context, target: target), log)
  }

  @Test func aReadonlyProfileRefusesChangesButNotReads() throws {
    let (change, _) = setting(readonly: true, ["user", "confirm"])
    #expect(throws: AuthError.self) { try change.checkWritable() }
    do { try change.checkWritable() } catch let error as AuthError {
      #expect(error.code == .readonlyProfile)
      #expect(error.message.contains("'prod'"))
      #expect(ExitStatus.forError(error) == 1)
    }
    let (read, _) = setting(readonly: true, ["user", "show"])
    try read.checkWritable()
  }

  @Test func destructiveCommandsNeedTheEmailTypedBackOrYes() throws {
    try setting(["user", "delete"], answer: Answer(text: " ada@example.com ")).0.confirm(ada)
    try setting(["user", "delete"], flags: ["--yes": [.on]]).0.confirm(ada)
    try setting(["user", "confirm"]).0.confirm(ada)
    do {
      try setting(["user", "delete"], answer: Answer(text: "bob@example.com")).0.confirm(ada)
      Issue.record("a wrong answer must not confirm")
    } catch let error as AuthError {
      #expect(error.code == .cancelled)
      #expect(error.message.contains("nothing was changed"))
    }
    do {
      try setting(["user", "disable"]).0.confirm(ada)
      Issue.record("no terminal and no --yes must not confirm")
    } catch let error as AuthError {
      #expect(ExitStatus.forError(error) == 64)
      #expect(error.message.contains("--yes"))
    }
  }

  @Test func mutatingCommandsLeaveOneAuditLineWithoutSecrets() throws {
    let (guarded, log) = setting(["user", "set-password"], flags: ["--password": [.text("hunter2-secret")]])
    try guarded.record(user: ada, email: nil, error: nil)
    try guarded.record(user: nil, email: "ghost@example.com", error: AuthError(.userNotFound))
    let (read, readLog) = setting(["user", "show"])
    try read.record(user: ada, email: nil, error: nil)
    #expect(try readLog.entries(since: nil).isEmpty)
    let entries = try log.entries(since: nil)
    #expect(entries.map(\.outcome) == ["ok", "user_not_found"])
    #expect(entries[0].command == "user set-password")
    #expect(entries[0].profile == "prod")
    #expect(entries[1].targetEmail == "ghost@example.com")
    #expect(!entries.map(\.json.compactText).joined().contains("hunter2"))
  }
}
