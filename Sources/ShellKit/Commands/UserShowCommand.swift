import AuthCore
import Essentials

struct UserShowCommand: Command {
  /// `--json` always has `users`, one entry per address: none when the command failed first.
  var outputOnFailure: (any CommandOutput)? { AccountsOutput(lookups: [], everyQuery: true) }

  func live(_ invocation: Invocation) -> LiveOutput? { .lookups }

  func run(_ invocation: Invocation, _ context: ShellContext, _ io: CommandIO) async throws -> CommandResult {
    let input = try lookupInput(invocation, context)
    // Nothing is sent before the first address is known: an empty list is a usage error.
    guard let first = try input.next() else {
      throw AuthError(
        .usage,
        message: invocation[.from].map { "\($0 == "-" ? "Standard input" : $0) has no addresses (one per line)." }
          ?? "Which accounts? Give e-mail addresses, user ids or E.164 phone numbers, or --from FILE.")
    }
    let jobs = invocation[.lookupJobs] ?? Self.defaultLookupJobs
    let (provider, _) = try makeAdminProvider(invocation, context)
    var result = CommandResult(.userShow)
    let streaming = io.lookupStream != nil
    let lookUp = {
      try await Self.lookUp(
        first: first, then: input, provider: provider, jobs: jobs, keep: !streaming, stream: io.lookupStream,
        progress: io.lookupProgress, stop: io.lookupShouldStop)
    }
    // Many accounts: an emulator's mail is read once for all of them, not once per account.
    let many = invocation[.from] != nil || invocation.all(.lookupUsers).count > 1
    let outcome =
      many ? try await MailSnapshot.$current.withValue(MailSnapshot(), operation: lookUp) : try await lookUp()
    var output = AccountsOutput(lookups: outcome.lookups, everyQuery: true)
    if streaming { output.streamed = outcome.tally.total }
    for lookup in output.lookups.prefix(100) { if let email = lookup.user?.email { context.noteEmail(email) } }
    // `ok`, the exit status, `expect ok` and piped input stopping all read the same error; a line
    // of the input no address can be ends the lookups as a usage error.
    result.error = outcome.inputError ?? Self.lookupFailure(outcome.tally)
    if Task.isCancelled {
      // Interrupted: the lookups that finished, and the interruption as the error.
      output.lookups.removeAll { $0.error?.code == .cancelled }
      result.error = AuthError(.cancelled)
    }
    result.payload = output
    return result
  }
}

extension UserShowCommand {
  static let defaultLookupJobs = 8

  /// The error of a `user show` where some account was not found (`user_not_found`) or could not
  /// be looked up (the first such error, so an outage stays an outage: exit 3); nil when all were found.
  static func lookupFailure(_ lookups: [UserLookup]) -> AuthError? {
    var tally = LookupTally()
    lookups.forEach { tally.add($0) }
    return lookupFailure(tally)
  }

  static func lookupFailure(_ tally: LookupTally) -> AuthError? {
    let several = tally.total > 1
    if var outage = tally.firstFailure {
      if several { outage.message = "Could not look up \(tally.failed) of \(tally.total) accounts: \(outage.message)" }
      return outage
    }
    guard let first = tally.firstMissing else { return nil }
    let message = several ? "\(tally.missing) of \(tally.total) accounts not found." : "No account for \(first)."
    return AuthError(.userNotFound, message: message)
  }

  /// The addresses and ids to look up: the arguments, then `--from FILE` read a line at a time
  /// (blank lines and `#` comments skipped).
  func lookupInput(_ invocation: Invocation, _ context: ShellContext) throws -> LookupInput {
    let arguments = invocation.all(.lookupUsers).map(\.trimmingWhitespace).filter { !$0.isEmpty }
    let kind = try target(invocation, context).provider
    guard let path = invocation[.from] else {
      return try LookupInput(arguments: arguments, lines: nil, name: "", kind: kind)
    }
    let name = path == "-" ? "standard input" : path
    // Every argument is checked before the file is opened.
    _ = try LookupInput(arguments: arguments, lines: nil, name: name, kind: kind)
    do {
      return try LookupInput(arguments: arguments, lines: try context.openInputLines(path), name: name, kind: kind)
    } catch let error as AuthError {
      throw error
    } catch {
      throw AuthError(.usage, message: "Cannot read \(name): \(SystemError.reason(error)).")
    }
  }

  /// Looks the input up `jobs` at a time, reading it only as lookups finish (memory stays
  /// bounded whatever its length). With `keep` the results come back in input order; `stream` and
  /// `progress` (done, and the total once the input has ended) hear of each as it completes;
  /// `stop` ends the reading early (the reader of `--jsonl` went away).
  static func lookUp(
    first: String, then input: LookupInput, provider: any AdminProvider, jobs: Int, keep: Bool,
    stream: (@Sendable (UserLookup) -> Void)?, progress: (@Sendable (Int, Int?) -> Void)?, stop: (@Sendable () -> Bool)?
  ) async throws -> LookupOutcome {
    var results: [UserLookup?] = []
    var queries: [String] = []
    var tally = LookupTally()
    var inputError: AuthError?
    await withTaskGroup(of: (Int, UserLookup).self) { group in
      var index = 0
      func start(_ query: String) {
        let position = index
        if keep {
          results.append(nil)
          queries.append(query)
        }
        // On the runtime's pool, not on a script's own thread (where requests block it): lookups run in parallel.
        group.addTask(executorPreference: globalConcurrentExecutor) {
          (position, await lookUp(query, provider: provider))
        }
        index += 1
      }
      func refill() {
        guard inputError == nil, !Task.isCancelled, stop?() != true else { return }
        do {
          if let query = try input.next() { start(query) }
        } catch {
          inputError = (error as? AuthError) ?? AuthError(.usage, message: "Cannot read \(input.name).")
        }
      }
      start(first)
      while index < jobs, !input.exhausted, inputError == nil { refill() }
      while let (position, lookup) = await group.next() {
        if keep { results[position] = lookup }
        tally.add(lookup)
        stream?(lookup)
        progress?(tally.total, input.exhausted && inputError == nil ? input.count : nil)
        refill()
      }
    }
    let lookups = results.enumerated().map { index, lookup in
      lookup ?? UserLookup(query: queries[index], error: AuthError(.cancelled))
    }
    return LookupOutcome(lookups: lookups, tally: tally, inputError: inputError)
  }

  /// One account; a missing account is `user_not_found`, never thrown.
  static func lookUp(_ query: String, provider: any AdminProvider) async -> UserLookup {
    do {
      // The provider fills in the emulator outbox's latest mail itself.
      guard let user = try await provider.user(UserReference(query)) else {
        return UserLookup(query: query, error: AuthError(.userNotFound, message: "No account for \(query)."))
      }
      return UserLookup(query: query, user: user)
    } catch var error as AuthError {
      // An answer that does not prove absence is never "no such account".
      if error.code != .userNotFound, error.code != .cancelled, !error.message.hasPrefix("Could not determine") {
        error.message = "Could not determine whether \(query) has an account: \(error.message)"
      }
      return UserLookup(query: query, error: error)
    } catch is CancellationError {
      return UserLookup(query: query, error: AuthError(.cancelled))
    } catch {
      return UserLookup(query: query, error: AuthError(.providerError, message: String(describing: error)))
    }
  }
}

/// How the lookups went, counted as they complete (`--jsonl` keeps no list: input may be endless).
struct LookupTally {
  var total = 0
  var missing = 0
  var failed = 0
  var firstMissing: String?
  var firstFailure: AuthError?

  mutating func add(_ lookup: UserLookup) {
    total += 1
    guard lookup.user == nil else { return }
    if let error = lookup.error, error.code != .userNotFound {
      failed += 1
      if firstFailure == nil { firstFailure = error }
    } else {
      missing += 1
      if firstMissing == nil { firstMissing = lookup.query }
    }
  }
}

struct LookupOutcome {
  /// In input order; empty when they were streamed.
  var lookups: [UserLookup]
  var tally: LookupTally
  /// The input ended in a line no address can be (the lookups before it were made).
  var inputError: AuthError?
}
