import AuthCore
import Essentials
import JSONKit

struct UserExportCommand: Command {
  func live(_ invocation: Invocation) -> LiveOutput? { .export }

  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    guard var output = io.exportOutput else {
      throw AuthError(
        .usage,
        message: "user export writes to standard output or a file: run it as `authsh user export --output users.jsonl`."
      )
    }
    if invocation.output(.json) {
      throw AuthError(
        .usage,
        message: "user export writes its records to standard output; --json does not apply (--format jsonl is JSON).")
    }
    let file = try invocation[.exportOutputFile].map { try ExportFile.open($0, replace: invocation[.exportForce]) }
    if let file {
      output.write = file.write
      output.toTerminal = false
    } else if invocation[.exportForce] {
      throw AuthError(.usage, message: "--force replaces the file of --output; without --output there is none.")
    }
    if output.toTerminal, !invocation[.exportYes], let prompter = context.linePrompter {
      // A person at the terminal: asked first, since the hashes would stay in its scrollback.
      let prompt = "The export holds password hashes and would be printed on this terminal. Print it here? [y/N] "
      guard let answer = prompter.readLine(prompt: prompt) else { throw AuthError(.cancelled) }
      guard ["y", "yes"].contains(answer.trimmingWhitespace.lowercased()) else {
        throw AuthError(
          .cancelled, message: "Not printed: nothing was exported.",
          hint: "Write it to a file instead: authsh user export --output users.jsonl")
      }
    } else if output.toTerminal, !invocation[.exportYes] {
      throw AuthError(
        .usage,
        message: "The export holds password hashes and standard output is a terminal: redirect it to a file"
          + " (authsh user export --output users.jsonl), or add --yes to print it here.")
    }
    if output.toTerminal {
      // Shown, not run: a display name's `\e]8;;…` or `\e[2J` is printed as those characters. A
      // file (--output) or a pipe gets the records byte for byte.
      let write = output.write
      output.write = { write(TerminalText.escapeKeepingLines($0)) }
    }
    let format = ExportFormat(rawValue: invocation[.exportFormat] ?? "jsonl") ?? .jsonl
    let filter = invocation[.filter].map { $0.trimmingWhitespace.lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
    let reader: any AccountReader
    do {
      reader = try await openReader(invocation, context, output: output)
    } catch {
      try? file?.finish(complete: false)
      throw error
    }
    do {
      let summary = try await Self.export(from: reader, format: format, filter: filter, output: output)
      await reader.close()
      let complete = summary.stopped == nil && !Task.isCancelled
      try file?.finish(complete: complete)
      if let file, summary.stopped != nil {
        throw AuthError(.outputNotWritten, message: summary.sentence + " Nothing was left in \(file.path).")
      }
      // A reader of standard output that went away chose to stop: nothing to tell it, or anyone.
      if file != nil || summary.stopped != ExportOutput.readerGone {
        output.note(
          summary.sentence
            + (file.map { complete ? " Wrote \($0.path) (mode 0600)." : " Nothing was left in \($0.path)." } ?? ""))
      }
      var result = CommandResult(command: invocation.spec.name)
      if Task.isCancelled { result.error = AuthError(.cancelled) }
      return result
    } catch {
      await reader.close()
      try? file?.finish(complete: false)
      throw error
    }
  }
}

extension UserExportCommand {
  static let exportPageSize = 1000

  /// The database (`--db`) or the backend's admin API.
  func openReader(_ invocation: Invocation, _ context: ShellContext, output: ExportOutput) async throws
    -> any AccountReader
  {
    let hashConfig = try invocation[.hashConfig].map { try Self.readHashConfig($0) }
    if let url = try Self.databaseURL(invocation, context) {
      // The database is all --db needs: no Supabase URL or key has to be set.
      var provider = context.connection.provider
      var timeout = invocation.output(.timeout) ?? context.connection.timeout ?? 30
      if let target = try? target(invocation, context) {
        provider = target.provider
        timeout = target.timeout
      }
      guard provider != .firebase else {
        throw AuthError(
          .usage, message: "--db reads a Supabase project's database (auth.users); add --provider supabase.")
      }
      guard hashConfig == nil else {
        throw AuthError(
          .usage, message: "--hash-config is for Firebase exports; --db reads Supabase's hashes as they are.")
      }
      guard let open = output.openDatabase else {
        throw AuthError(.notSupported, message: "This build of authsh cannot read databases (--db).")
      }
      return try await open(url, timeout)
    }
    let target = try target(invocation, context)
    let provider = try makeAdminProvider(invocation, context, target: target)
    guard let exporting = provider as? any AccountExporting else {
      throw AuthError(.notSupported, message: "This backend cannot export its accounts.")
    }
    if hashConfig != nil, target.provider != .firebase {
      throw AuthError(.usage, message: "--hash-config is for Firebase exports (the project's scrypt parameters).")
    }
    return try await exporting.accountReader(hashConfig: hashConfig)
  }

  /// `--db URL`, or `--db-env VAR`'s value; nil: neither was given.
  static func databaseURL(_ invocation: Invocation, _ context: ShellContext) throws -> String? {
    guard let variable = invocation[.databaseURLEnv] else { return invocation[.databaseURL] }
    guard invocation[.databaseURL] == nil else {
      throw AuthError(.usage, message: "Give --db URL or --db-env VAR, not both.")
    }
    guard let url = context.environment[variable], !url.trimmingWhitespace.isEmpty else {
      throw AuthError(.usage, message: "Environment variable \(variable) is not set (--db-env).")
    }
    return url
  }

  /// Reads every page and writes each record as it comes; notes on standard error once.
  static func export(from reader: any AccountReader, format: ExportFormat, filter: String?, output: ExportOutput)
    async throws -> ExportSummary
  {
    var summary = ExportSummary(format: format)
    var token: String?
    var first = true
    var noticed = false
    if let notice = reader.privacyNotice { output.note(notice) }
    if let reason = output.write(format.header) { return ExportSummary(stopped: reason) }
    repeat {
      try Task.checkCancellation()
      let page = try await reader.page(after: token, size: exportPageSize)
      if !noticed {
        noticed = true
        for notice in await reader.notices { output.note(notice) }
      }
      var chunk = ""
      var counted = summary
      for account in page.accounts where filter.map(account.matches) ?? true {
        chunk += format.record(account, first: first)
        first = false
        counted.written += 1
        if account.passwordHash != nil {
          counted.withHash += 1
        } else if account.passwordNote != nil {
          counted.withoutHash += 1
        }
      }
      // A page counts once it is out: the count at the end is what the output holds.
      if !chunk.isEmpty, let reason = output.write(chunk) {
        summary.stopped = reason
        return summary
      }
      summary = counted
      output.progress?(summary.written)
      if let next = page.next, next == token {
        throw AuthError(
          .malformedResponse,
          message: "The server repeated a page token; stopped the export after \(summary.written) accounts.")
      }
      token = page.next
    } while token != nil
    if let reason = output.write(format.footer) { summary.stopped = reason }
    return summary
  }
}

struct ExportSummary {
  var written = 0
  var withHash = 0
  var withoutHash = 0
  /// The Firebase CLI's format has no password_note: an account without its hash reads as one
  /// that never had a password.
  var format = ExportFormat.jsonl
  /// Why the output stopped before the end, when it did.
  var stopped: String?

  var sentence: String {
    let accounts = written == 1 ? "1 account" : "\(written) accounts"
    var parts: [String] = []
    if withHash > 0 { parts.append("\(withHash) with a password hash") }
    if withoutHash > 0 {
      parts.append(
        "\(withoutHash) whose password hash is missing ("
          + (format == .firebase
            ? "this format cannot say so: an import of the file creates them without a password; --format jsonl keeps a password_note"
            : "see password_note") + ")")
    }
    let detail = parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    return (stopped.map { "Stopped after \(accounts): \($0)" } ?? "Exported \(accounts)") + detail + "."
  }
}
