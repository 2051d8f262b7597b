import AuthCore
import Essentials
import JSONKit

/// `user import FILE|-`: accounts from an export created on the target backend with their password
/// hashes (`AccountImporter`). A change: a readonly profile refuses it; one confirmation for the
/// whole file on a terminal ("type 500 to confirm"), `--yes` otherwise; an audit line per account
/// (the log answers "what happened to ada@…" whichever way she was changed). Never prints a hash.
extension CommandRunner {
  func importUsers(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let target = try target(invocation, context)
    let guardRails = SupportGuard(invocation: invocation, context: context, target: target)
    let path = (invocation.argument("FILE") ?? "").trimmingWhitespace
    guard !path.isEmpty else { throw AuthError(.usage, message: "Which file? `user import FILE` (- for standard input).") }
    let name = path == "-" ? "standard input" : path
    // A dry run sends nothing, so a readonly profile may make one.
    if !invocation[.importDryRun] { try guardRails.checkWritable() }
    let hashConfig = try invocation[.importHashConfig].map { try readHashConfig($0) }
    let text: String
    do {
      let caps = ShellContext.InputCaps.accountFile
      text = path == "-" && context.readStdinText != nil
        ? try context.readStdinText!() : try ShellContext.readFile(path, limit: caps.limit, lineLimit: caps.line)
    } catch {
      throw AuthError(.usage, message: "Cannot read \(name): \(Self.reason(error)).")
    }
    let (format, accounts): (AccountFileFormat, [PortableAccount])
    do {
      (format, accounts) = try PortableAccountReader.read(text, hashConfig: hashConfig)
    } catch let error as PortableAccountError {
      throw AuthError(.usage, message: "\(name) is not an account export: \(error.message).")
    }
    var result = CommandResult(command: invocation.spec.name)
    let backend = "\(target.provider.rawValue) (profile \(target.profile))"
    if invocation[.importDryRun] {
      result.output = ImportSummary.dryRun(accounts, format: format, source: name, backend: backend, provider: target.provider,
                                           now: context.clock.unixNow)
      return result
    }
    guard !accounts.isEmpty else {
      result.output = "\(name) has no accounts; nothing was sent."
      return result
    }
    try confirmBatch(invocation, context, count: accounts.count, backend: backend)
    let provider = try makeAdminProvider(invocation, context, target: target)
    try guardRails.recordAttempt(email: name)
    guard let importer = provider as? any AccountImporter else {
      let refusal = AuthError(.notSupported, message: "This backend cannot import accounts.")
      try? guardRails.record(user: nil, email: name, error: refusal)
      throw refusal
    }
    let outcomes = await importer.importAccounts(accounts, jobs: invocation[.importJobs] ?? 8) { _ in }
    var auditFailure: AuthError?
    let lines = outcomes.map { outcome -> (email: String?, error: AuthError?) in
      let error: AuthError? = switch outcome.status {
      case .imported, .wouldImport: nil
      case .skippedExisting: AuthError(.userAlreadyExists, message: "skipped: already there")
      case .failed: AuthError(ErrorCode(rawValue: outcome.errorCode ?? "provider_error"), message: outcome.message ?? "")
      }
      return (outcome.email ?? outcome.newId ?? outcome.sourceId, error)
    }
    do {
      try guardRails.recordAll(lines)
    } catch let failure as AuthError {
      auditFailure = failure
    }
    if let report = invocation[.importReport] {
      let lines = outcomes.map { String(decoding: $0.json.bytes, as: UTF8.self) }.joined(separator: "\n") + "\n"
      do {
        try Data(lines.utf8).write(to: URL(fileURLWithPath: report))
      } catch {
        result.notes.append("warning: the report could not be written to \(report): \(Self.reason(error))")
      }
    }
    result.output = ImportSummary.text(outcomes, total: accounts.count, format: format, source: name, backend: backend)
    let failed = outcomes.filter { $0.status == .failed }.count
    if let auditFailure {
      result.error = AuthError(.auditUnavailable, message: "The import ran, but not every outcome is in the audit log: \(auditFailure.message)")
    } else if failed > 0 {
      result.error = AuthError(.providerError, message: "\(failed) of \(accounts.count) accounts could not be imported (listed above).")
    }
    return result
  }

  /// The batch's one confirmation: on a terminal "type N to confirm", otherwise `--yes`.
  func confirmBatch(_ invocation: Invocation, _ context: ShellContext, count: Int, backend: String) throws {
    guard !invocation[.yes], !context.confirmedByScript else { return }
    guard let prompter = context.linePrompter else {
      throw AuthError(.usage, message: "'user import' creates \(count) accounts on \(backend) and needs confirmation: add --yes (there is no terminal to ask).")
    }
    guard let answer = prompter.readLine(prompt: "Import \(count) accounts into \(backend). Type \(count) to confirm: ") else {
      throw AuthError(.cancelled)
    }
    guard answer.trimmingWhitespace == String(count) else {
      throw AuthError(.cancelled, message: "Not confirmed ('\(answer.trimmingWhitespace)' is not \(count)); nothing was sent.")
    }
  }

  func readHashConfig(_ path: String) throws -> FirebaseHashConfig {
    let text: String
    do {
      text = try ShellContext.readFile(path, limit: ShellContext.InputCaps.parameters.limit, lineLimit: ShellContext.InputCaps.parameters.line)
    } catch {
      throw AuthError(.usage, message: "Cannot read the hash config \(path): \(Self.reason(error)).")
    }
    do {
      return try FirebaseHashConfig(json: try JSON.parse(text))
    } catch let error as PortableAccountError {
      throw AuthError(.usage, message: "The hash config \(path) cannot be used: \(error.message).")
    } catch {
      throw AuthError(.usage, message: "The hash config \(path) is not JSON.")
    }
  }
}
