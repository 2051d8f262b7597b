import AuthCore
import Foundation
import JSONKit
import ShellKit

/// An in-memory admin API: accounts by e-mail, every call recorded, optional per-lookup delays
/// (to scramble completion order) and a count of lookups running at once.
final class FakeAdminProvider: AdminProvider {
  let kind: ProviderKind = .supabase
  let endpoint = "http://127.0.0.1:9999/auth/v1"
  private struct State {
    var accounts: [String: AdminUser] = [:]
    var calls: [String] = []
    var running = 0
    var mostAtOnce = 0
    var failures: [String: AuthError] = [:]
    var scramble = false
    var appliedThenFailed: [String: AuthError] = [:]
    var unsupportedChanges: [AdminChange] = []
    var trails: [String: [AccountEvent]] = [:]
  }
  private let state = Guarded(State())
  var accounts: [String: AdminUser] { state[\.accounts] }
  var calls: [String] { state[\.calls] }
  var mostAtOnce: Int { state[\.mostAtOnce] }
  /// Lookups of these queries fail with the error (an outage, say).
  var failures: [String: AuthError] {
    get { state[\.failures] }
    set { state[\.failures] = newValue }
  }
  /// Lookups wait a moment, longer for earlier queries, so they complete out of order.
  var scramble: Bool {
    get { state[\.scramble] }
    set { state[\.scramble] = newValue }
  }
  /// Changes (confirm, delete) of these addresses fail with the error after being applied (a
  /// timeout: the answer was lost).
  var appliedThenFailed: [String: AuthError] {
    get { state[\.appliedThenFailed] }
    set { state[\.appliedThenFailed] = newValue }
  }
  /// Changes this backend cannot make.
  var unsupportedChanges: [AdminChange] {
    get { state[\.unsupportedChanges] }
    set { state[\.unsupportedChanges] = newValue }
  }
  /// The audit trail `history` answers, per e-mail.
  var trails: [String: [AccountEvent]] {
    get { state[\.trails] }
    set { state[\.trails] = newValue }
  }

  func unsupported(_ change: AdminChange, for user: AdminUser) -> AuthError? {
    unsupportedChanges.contains(change) ? AuthError(.notSupported, message: "This backend cannot.") : nil
  }

  init(_ users: [AdminUser] = []) {
    state.update { state in
      for user in users { state.accounts[user.email] = user }
    }
  }

  private func record(_ call: String) { state.update { $0.calls.append(call) } }

  func user(_ reference: UserReference) async throws -> AdminUser? {
    let found: AdminUser? = state.update { state in
      state.calls.append("user \(reference)")
      state.running += 1
      state.mostAtOnce = max(state.mostAtOnce, state.running)
      return state.accounts[reference.description] ?? state.accounts.values.first { $0.id == reference.description }
    }
    defer { state.update { $0.running -= 1 } }
    if scramble {
      let rank = Int(reference.description.filter(\.isNumber)) ?? 0
      try await Task.sleep(for: .milliseconds(5 + (40 - rank % 40)))
    } else {
      await Task.yield()
    }
    if let error = failures[reference.description] { throw error }
    return found
  }

  func listUsers(_ query: UserListQuery) async throws -> UserPage {
    record("list")
    let users = accounts.values.sorted { $0.email < $1.email }.filter { query.filter.map($0.email.contains) ?? true }
    return UserPage(
      users: Array(users.prefix(query.limit)), total: users.count,
      nextPageToken: users.count > query.limit ? "page-2" : nil)
  }
  func link(_ kind: AdminLinkKind, for user: AdminUser) async throws -> AdminLink {
    record("link \(kind.rawValue) \(user.email)")
    return AdminLink(kind: kind, email: user.email, url: "http://127.0.0.1:9999/verify?token=link-token-1")
  }
  func change(_ email: String, _ body: (inout AdminUser) -> Void) -> AdminUser {
    state.update { state in
      var user = state.accounts[email]!
      body(&user)
      state.accounts[email] = user
      return user
    }
  }
  func confirmEmail(_ user: AdminUser) async throws -> AdminUser {
    record("confirm \(user.email)")
    let changed = change(user.email) { $0.confirmed = true }
    if let error = appliedThenFailed[user.email] { throw error }
    return changed
  }
  func resendConfirmation(_ user: AdminUser) async throws { record("resend \(user.email)") }
  func disable(_ user: AdminUser, forSeconds seconds: Int?) async throws -> AdminUser {
    // The duration reaches the backend as given: a ban of `--until 7d` is 604,800 s, not "for ever".
    record("disable \(user.email)" + (seconds.map { " for \($0) s" } ?? ""))
    return change(user.email) { $0.disabled = true }
  }
  func enable(_ user: AdminUser) async throws -> AdminUser {
    record("enable \(user.email)")
    return change(user.email) { $0.disabled = false }
  }
  func setPassword(_ user: AdminUser, to password: String) async throws -> AdminUser {
    record("set-password \(user.email)")
    return user
  }
  func createUser(email: String, password: String?, confirmed: Bool, name: String?) async throws -> AdminUser {
    record("create \(email)")
    let user = AdminUser(
      id: "id-new", email: email, confirmed: confirmed, methods: password == nil ? [] : ["password"], name: name)
    state.update { $0.accounts[email] = user }
    return user
  }
  func delete(_ user: AdminUser, soft: Bool) async throws {
    record("delete \(user.email)")
    _ = state.update { $0.accounts.removeValue(forKey: user.email) }
    if let error = appliedThenFailed[user.email] { throw error }
  }
  func signOut(_ user: AdminUser) async throws {
    record("signout \(user.email)")
    throw AuthError(.notSupported, message: "This backend cannot end another user's sessions.")
  }
  func setEmail(_ user: AdminUser, to email: String, confirmed: Bool) async throws -> AdminUser {
    record("set-email \(user.email) \(email)")
    var changed = user
    changed.email = email
    if confirmed { changed.confirmed = true }
    state.update { state in
      state.accounts[user.email] = nil
      state.accounts[email] = changed
    }
    return changed
  }
  func update(_ user: AdminUser, with changes: AccountUpdate) async throws -> AdminUser {
    record("update \(user.email)")
    return change(user.email) { user in
      if let name = changes.name { user.name = name }
      if !changes.metadata.isEmpty {
        user.metadata = .object(AccountUpdate.merged(user.metadata?.object ?? JSONObject(), changes.metadata))
      }
      let admin = AccountUpdate.merged(
        AccountUpdate.merged(user.appMetadata?.object ?? JSONObject(), changes.appMetadata), changes.claims)
      if !admin.isEmpty { user.appMetadata = .object(admin) }
    }
  }
  /// Accounts whose e-mail change to the address is pending (`pendingEmail`).
  func accountChangingEmail(to email: String) async throws -> (user: AdminUser?, complete: Bool) {
    record("pending \(email)")
    return (state.update { $0.accounts.values.first { $0.pendingEmail == email } }, true)
  }
  func settings() async throws -> ProjectSettings {
    ProjectSettings(requiresEmailConfirmation: true, passwordSignInEnabled: true)
  }
  func latestMail(to email: String) async throws -> InboxMessage? { nil }
  func resetFactors(_ user: AdminUser, factorId: String?) async throws -> AdminUser {
    record("mfa reset \(user.email)\(factorId.map { " " + $0 } ?? "")")
    return change(user.email) { account in account.factors.removeAll { factorId == nil || $0.id == factorId } }
  }
  func history(_ user: AdminUser, since: Int?) async throws -> [AccountEvent] {
    record("history \(user.email)")
    return trails[user.email] ?? []
  }
}

/// Answers the typed confirmations (`LinePrompter`) from the same list.
extension ScriptedPrompter: LinePrompter {
  func readLine(prompt: String) -> String? { answer(prompt) }
}

/// A context whose admin API is `provider`, on a Supabase target with a service key.
struct SupportHarness {
  let provider: FakeAdminProvider
  let context: ShellContext
  let audit: MemoryAuditLog
  private let readonly: Bool

  init(
    _ users: [AdminUser] = [], readonly: Bool = false, auditLog: (any AuditLog)? = nil, operatorName: String? = nil
  ) {
    let provider = FakeAdminProvider(users)
    let audit = MemoryAuditLog()
    self.init(
      provider: provider, audit: audit, readonly: readonly,
      services: ShellServices(
        makeProvider: { _, _ in fatalError("not used") }, sessionStore: InMemorySessionStore(),
        makeAdminProvider: { _, _, _ in provider }, auditLog: auditLog ?? audit, operatorName: operatorName))
  }

  private init(provider: FakeAdminProvider, audit: MemoryAuditLog, readonly: Bool, services: ShellServices) {
    let environment = ["HOME": "/nonexistent", "SUPABASE_SECRET_KEY": "sb_secret_key-for-tests"]
    self.provider = provider
    self.audit = audit
    self.readonly = readonly
    var connection = ConnectionFlags()
    connection.provider = .supabase
    context = ShellContext(
      resolver: ConfigResolver(environment: environment, paths: Paths(environment: environment), configFile: nil),
      connection: connection, services: services, environment: environment)
    var target = Target(
      provider: .supabase, profile: "prod", url: "http://127.0.0.1:9999/auth/v1", key: "anon-key-for-tests")
    target.readonly = readonly
    context.emulatorTargets = [.supabase: target]
  }

  /// The same accounts and audit log, in a context whose services `change` sets (a prompter, the
  /// files a batch reads and writes, its clock): a context's services are fixed when it is made.
  func with(_ change: (inout ShellServices) -> Void) -> SupportHarness {
    var services = context.services
    change(&services)
    return SupportHarness(provider: provider, audit: audit, readonly: readonly, services: services)
  }

  func run(_ line: String, io: CommandIO = CommandIO()) async throws -> CommandResult {
    let words = try WordSplitter.split(line)
    let invocation = try InvocationParser.parse(words, surface: .oneShot).get()
    return await CommandRunner().run(invocation, in: context, io: io)
  }

  static func invocation(_ line: String) throws -> Invocation {
    try InvocationParser.parse(try WordSplitter.split(line), surface: .oneShot).get()
  }

  static func user(_ number: Int, _ change: (inout AdminUser) -> Void = { _ in }) -> AdminUser {
    var user = AdminUser(
      id: "id-\(number)", email: "user\(number)@example.com", confirmed: true, confirmedAt: "2026-01-02T03:04:05Z",
      createdAt: "2026-01-01T00:00:00Z", lastSignInAt: nil, methods: ["password"], name: "User \(number)")
    change(&user)
    return user
  }
}
