import AuthCore
import Foundation

/// `user show` (many accounts, bounded concurrency, results in input order) and `user list`.
extension CommandRunner {
  static let defaultLookupJobs = 8

  func showUsers(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let queries = try lookupQueries(invocation, context)
    let jobs = invocation[.lookupJobs] ?? Self.defaultLookupJobs
    let (provider, _) = try makeAdminProvider(invocation, context)
    var result = CommandResult(command: "user show")
    result.lookups = try await Self.lookUp(
      queries, provider: provider, jobs: jobs, stream: context.lookupStream, progress: context.lookupProgress)
    for lookup in result.lookups { if let email = lookup.user?.email { context.noteEmail(email) } }
    if Task.isCancelled {
      // Interrupted: the lookups that finished, and the interruption as the error.
      result.lookups.removeAll { $0.error?.code == .cancelled }
      result.error = AuthError(.cancelled)
    }
    return result
  }

  /// The addresses and ids to look up: the arguments, then `--from FILE` (one per line; blank
  /// lines and `#` comments skipped).
  func lookupQueries(_ invocation: Invocation, _ context: ShellContext) throws -> [String] {
    var queries = invocation.rest.map(\.trimmingWhitespace).filter { !$0.isEmpty }
    if let path = invocation[.from] {
      let text: String
      do {
        text = try context.readInputFile(path)
      } catch {
        let name = path == "-" ? "standard input" : path
        throw AuthError(.usage, message: "Cannot read \(name): \(Self.reason(error)).")
      }
      queries += Self.addresses(inFile: text)
    }
    guard !queries.isEmpty else {
      throw AuthError(
        .usage,
        message: invocation[.from].map { "\($0 == "-" ? "Standard input" : $0) has no addresses (one per line)." }
          ?? "Which accounts? Give e-mail addresses or user ids, or --from FILE.")
    }
    return queries
  }

  /// One address or id per line; blank lines and `#` comments are skipped.
  static func addresses(inFile text: String) -> [String] {
    text.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
  }

  static func reason(_ error: Error) -> String {
    let nsError = error as NSError
    if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileReadNoSuchFileError || nsError.code == 260 {
      return "no such file"
    }
    if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(posix.code)))
    }
    return nsError.localizedDescription
  }

  /// Looks `queries` up `jobs` at a time. Results are in input order; `stream` and `progress` hear
  /// of each one as it completes.
  static func lookUp(
    _ queries: [String], provider: any AdminProvider, jobs: Int, stream: (@Sendable (UserLookup) -> Void)?,
    progress: (@Sendable (Int, Int) -> Void)?
  ) async throws -> [UserLookup] {
    var results = [UserLookup?](repeating: nil, count: queries.count)
    await withTaskGroup(of: (Int, UserLookup).self) { group in
      var next = 0
      var done = 0
      while next < queries.count, next < jobs {
        let index = next
        group.addTask { (index, await lookUp(queries[index], provider: provider)) }
        next += 1
      }
      while let (index, lookup) = await group.next() {
        results[index] = lookup
        done += 1
        stream?(lookup)
        progress?(done, queries.count)
        if next < queries.count, !Task.isCancelled {
          let index = next
          group.addTask { (index, await lookUp(queries[index], provider: provider)) }
          next += 1
        }
      }
    }
    return results.enumerated().map { index, lookup in lookup ?? UserLookup(query: queries[index], error: AuthError(.cancelled)) }
  }

  /// One account; a missing account is `user_not_found`, never thrown.
  static func lookUp(_ query: String, provider: any AdminProvider) async -> UserLookup {
    do {
      // The provider fills in the emulator outbox's latest mail itself.
      guard let user = try await provider.user(UserReference(query)) else {
        return UserLookup(query: query, error: AuthError(.userNotFound, message: "No account for \(query)."))
      }
      return UserLookup(query: query, user: user)
    } catch let error as AuthError {
      return UserLookup(query: query, error: error)
    } catch is CancellationError {
      return UserLookup(query: query, error: AuthError(.cancelled))
    } catch {
      return UserLookup(query: query, error: AuthError(.providerError, message: String(describing: error)))
    }
  }

  func listUsers(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let limit = invocation[.limit] ?? 50
    let filter = invocation[.filter].map(\.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
    let (provider, _) = try makeAdminProvider(invocation, context)
    var result = CommandResult(command: "user list")
    result.userPage = try await provider.listUsers(UserListQuery(filter: filter, limit: limit, pageToken: invocation[.pageToken]))
    return result
  }
}
