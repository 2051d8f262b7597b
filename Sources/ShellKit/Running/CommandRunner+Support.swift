import AuthCore

// FOUNDATION (straight-line): helper H adds --from/--jobs/--jsonl, readonly, confirmation prompts,
// the audit log and the real diagnosis; helpers F and G fill in the providers.
extension CommandRunner {
  func makeAdminProvider(_ invocation: Invocation, _ context: ShellContext) throws -> (any AdminProvider, Target) {
    let target = try target(invocation, context)
    guard let make = context.makeAdminProvider else {
      throw AuthError(.notSupported, message: "Admin commands are not available here.")
    }
    let credential = try AdminCredential.resolve(for: target, environment: context.environment)
    for secret in credential.secrets { context.redactor.register(secret) }
    let verbose = context.verbose || invocation.has("--verbose")
    let sink = context.traceSink
    let redactor = context.redactor
    var trace: (@Sendable (String) -> Void)?
    if verbose, let sink {
      trace = { @Sendable line in sink(TerminalText.escapeKeepingLines(redactor.redact(line))) }
    }
    return (make(target, credential, trace), target)
  }

  /// The account named by the EMAIL argument, or `user_not_found`.
  func requireUser(_ invocation: Invocation, _ provider: any AdminProvider) async throws -> AdminUser {
    let text = invocation.argument("EMAIL") ?? ""
    guard !text.trimmingWhitespace.isEmpty else {
      throw AuthError(.usage, message: "Which account? Give its e-mail address or user id.")
    }
    guard let user = try await provider.user(UserReference(text)) else {
      throw AuthError(.userNotFound, message: "No account for \(text.trimmingWhitespace).")
    }
    return user
  }

  func support(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let name = invocation.spec.name
    var result = CommandResult(command: name)
    if name == "audit" { return result }
    let (provider, _) = try makeAdminProvider(invocation, context)
    switch name {
    case "user show":
      for query in invocation.rest {
        do {
          let user = try await provider.user(UserReference(query))
          result.lookups.append(
            UserLookup(query: query, user: user, error: user == nil ? AuthError(.userNotFound, message: "No account for \(query).") : nil))
        } catch let error as AuthError {
          result.lookups.append(UserLookup(query: query, error: error))
        }
      }
    case "user list":
      let limit = invocation.value("--limit").flatMap { Int($0) } ?? 50
      result.userPage = try await provider.listUsers(
        UserListQuery(filter: invocation.value("--filter"), limit: limit, pageToken: invocation.value("--page-token")))
    case "user link recovery", "user link confirm":
      let user = try await requireUser(invocation, provider)
      let link = try await provider.link(name.hasSuffix("recovery") ? .recovery : .confirm, for: user)
      result.link = link
    case "user confirm":
      result.lookups = [UserLookup(query: "", user: try await provider.confirmEmail(try await requireUser(invocation, provider)))]
    case "user resend":
      let user = try await requireUser(invocation, provider)
      try await provider.resendConfirmation(user)
      result.notes.append("Sent the confirmation e-mail to \(user.email) again.")
    case "user disable":
      let seconds = try invocation.value("--until").map { text -> Int in
        guard let seconds = Durations.seconds(text) else { throw AuthError(.usage, message: "--until takes a duration such as 24h, not '\(text)'") }
        return Int(seconds)
      }
      result.lookups = [UserLookup(query: "", user: try await provider.disable(try await requireUser(invocation, provider), forSeconds: seconds))]
    case "user enable":
      result.lookups = [UserLookup(query: "", user: try await provider.enable(try await requireUser(invocation, provider)))]
    case "user set-password":
      let user = try await requireUser(invocation, provider)
      guard let (password, _) = try PasswordSource(invocation: invocation, context: context).read(confirm: true) else {
        throw AuthError(.passwordRequired)
      }
      result.lookups = [UserLookup(query: "", user: try await provider.setPassword(user, to: password))]
    case "user create":
      let email = (invocation.argument("EMAIL") ?? "").trimmingWhitespace
      let password = try PasswordSource(invocation: invocation, context: context).read(confirm: true)?.password
      let user = try await provider.createUser(
        email: email, password: password, confirmed: invocation.has("--confirmed"), name: invocation.value("--name"))
      result.lookups = [UserLookup(query: email, user: user)]
    case "user delete":
      try await provider.delete(try await requireUser(invocation, provider), soft: invocation.has("--soft"))
      result.notes.append("Deleted.")
    case "user signout":
      try await provider.signOut(try await requireUser(invocation, provider))
      result.notes.append("Ended every session of the account.")
    case "diagnose":
      let email = (invocation.argument("EMAIL") ?? "").trimmingWhitespace
      let user = try await provider.user(UserReference(email))
      let findings: [Diagnosis.Finding] =
        user == nil ? [.init(code: "no_account", message: "There is no account for \(email).")] : []
      result.diagnosis = Diagnosis(email: email, findings: findings, canSignIn: user != nil)
    default:
      throw AuthError(.usage, message: "'\(name)' is not a command this surface runs here")
    }
    return result
  }
}
