import AuthCore
import Foundation

/// `user show` (many accounts, bounded concurrency, results in input order) and `user list`.
extension CommandRunner {
  static let defaultLookupJobs = 8
  static let maximumLookupJobs = 64

  func showUsers(_ invocation: Invocation, _ context: ShellContext) async throws -> CommandResult {
    let queries = try lookupQueries(invocation, context)
    let jobs = try lookupJobs(invocation)
    let (provider, _) = try makeAdminProvider(invocation, context)
    var result = CommandResult(command: "user show")
    result.lookups = try await Self.lookUp(
      queries, provider: provider, jobs: jobs, stream: context.lookupStream, progress: context.lookupProgress)
    for lookup in result.lookups { if let email = lookup.user?.email { context.noteEmail(email) } }
    return result
  }

  /// The addresses and ids to look up: the arguments, then `--from FILE` (one per line; blank
  /// lines and `#` comments skipped).
  func lookupQueries(_ invocation: Invocation, _ context: ShellContext) throws -> [String] {
    var queries = invocation.rest.map(\.trimmingWhitespace).filter { !$0.isEmpty }
    if let path = invocation.value("--from") {
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
        message: invocation.has("--from")
          ? "\(invocation.value("--from") == "-" ? "Standard input" : invocation.value("--from") ?? "") has no addresses (one per line)."
          : "Which accounts? Give e-mail addresses or user ids, or --from FILE.")
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

  func lookupJobs(_ invocation: Invocation) throws -> Int {
    guard let text = invocation.value("--jobs") else { return Self.defaultLookupJobs }
    guard let jobs = Int(text.trimmingWhitespace), (1...Self.maximumLookupJobs).contains(jobs) else {
      throw AuthError(.usage, message: "--jobs takes a number from 1 to \(Self.maximumLookupJobs), not '\(text)'")
    }
    return jobs
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
    try Task.checkCancellation()
    return results.enumerated().map { index, lookup in lookup ?? UserLookup(query: queries[index], error: AuthError(.cancelled)) }
  }

  /// One account with its latest emulator mail; a missing account is `user_not_found`, never thrown.
  static func lookUp(_ query: String, provider: any AdminProvider) async -> UserLookup {
    do {
      guard var user = try await provider.user(UserReference(query)) else {
        return UserLookup(query: query, error: AuthError(.userNotFound, message: "No account for \(query)."))
      }
      if user.pendingMail == nil, !user.email.isEmpty {
        user.pendingMail = try? await provider.latestMail(to: user.email)
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
    var limit = 50
    if let text = invocation.value("--limit") {
      guard let value = Int(text.trimmingWhitespace), (1...1000).contains(value) else {
        throw AuthError(.usage, message: "--limit takes a number from 1 to 1000, not '\(text)'")
      }
      limit = value
    }
    let filter = invocation.value("--filter").map(\.trimmingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
    let (provider, _) = try makeAdminProvider(invocation, context)
    var result = CommandResult(command: "user list")
    result.userPage = try await provider.listUsers(UserListQuery(filter: filter, limit: limit, pageToken: invocation.value("--page-token")))
    return result
  }
}
