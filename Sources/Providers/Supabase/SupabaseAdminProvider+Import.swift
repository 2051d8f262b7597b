import AuthCore
import Essentials
import JSONKit

/// `user import` into Supabase: one `POST /admin/users` per account (id, e-mail, confirmation,
/// metadata, ban, `password_hash` as GoTrue takes it), `jobs` at a time. An address already
/// registered is skipped (422 `email_exists`), never overwritten.
extension SupabaseAdminProvider: AccountImporter {
  /// One `POST /admin/users` per account.
  package var accountsPerRequest: Int { 1 }

  package func importAccounts(
    _ accounts: [PortableAccount], jobs: Int, stop: BatchStop?, progress: @escaping @Sendable ([ImportOutcome]) -> Void
  ) async -> [ImportOutcome] {
    let now = clock.unixNow
    // The first request that never reached the backend (refused, no route) stops the rest: each
    // of them would fail the same way, and is `not_started` instead.
    let unreachable = Guarded<AuthError?>(nil)
    @Sendable func stopping() -> Bool {
      Task.isCancelled || stop?.stopped == true || unreachable.update { $0 } != nil
    }
    // `jobs` workers, each on its own lane (a thread of its own where the surface has them), take
    // the next account until none is left or the import is stopped.
    let claimed = Guarded(0)
    let lanes = RequestLanes.executors(min(max(jobs, 1), accounts.count))
    var results = [ImportOutcome?](repeating: nil, count: accounts.count)
    await withTaskGroup(of: [ImportOutcome].self) { group in
      for lane in lanes {
        group.addTask(executorPreference: lane ?? globalConcurrentExecutor) {
          var done: [ImportOutcome] = []
          while !stopping() {
            let index = claimed.update { next in
              defer { next += 1 }
              return next
            }
            guard index < accounts.count else { break }
            let outcome = await self.importOne(accounts[index], index: index, now: now)
            unreachable.keepUnreachable(CollectionOfOne(outcome))
            progress([outcome])
            done.append(outcome)
          }
          return done
        }
      }
      for await done in group {
        for outcome in done { results[outcome.index] = outcome }
      }
    }
    // Never sent: each still has its outcome.
    let reason = unreachable.update { $0 }
    let unsent = accounts.indices.filter { results[$0] == nil }.map {
      ImportOutcome.interrupted(
        ImportOutcome(index: $0, account: accounts[$0], status: .imported), by: reason, sent: false)
    }
    if !unsent.isEmpty { progress(unsent) }
    for outcome in unsent { results[outcome.index] = outcome }
    return results.compactMap { $0 }
  }

  func importOne(_ account: PortableAccount, index: Int, now: Int) async -> ImportOutcome {
    let (body, withoutPassword) = AccountImportPlan.supabaseBody(account, now: now)
    var outcome = ImportOutcome(index: index, account: account, status: .imported)
    do {
      let (json, _) = try await ImportRetry.run { try await call("POST", "/admin/users", body: .object(body)) }
      if let id = json["id"]?.string, id != account.id { outcome.newId = id }
      outcome.withoutPassword = withoutPassword
    } catch let error as AuthError
      where error.code == .userAlreadyExists || (error.providerCode == "phone_exists" && account.email == nil)
    {
      // A phone-only account is known by its number: taken means it is there (a second run).
      outcome.status = .skippedExisting
    } catch let error as AuthError where error.isNoAnswer {
      outcome = ImportOutcome.interrupted(outcome, by: error, sent: true)
    } catch let error as AuthError {
      outcome.status = .failed
      outcome.errorCode = error.code.rawValue
      outcome.message = error.message
    } catch is CancellationError {
      outcome = ImportOutcome.interrupted(outcome, by: AuthError(.cancelled), sent: true)
    } catch {
      outcome.status = .failed
      outcome.errorCode = ErrorCode.providerError.rawValue
      outcome.message = "\(error)"
    }
    return outcome
  }
}

/// Bounded retries of one import call: rate limits (the server's Retry-After, else 1 s, 2 s, 4 s…)
/// and a gateway that was unavailable (502, 503, 504), at most `attempts` tries. Other errors are
/// final: a 500 may mean the account was made.
enum ImportRetry {
  static func run<T>(attempts: Int = 5, _ body: () async throws -> T) async throws -> T {
    var attempt = 1
    while true {
      do {
        return try await body()
      } catch let error as AuthError
        where attempt < attempts && (error.code == .rateLimited || [502, 503, 504].contains(error.status ?? 0))
      {
        let wait = error.retryAfterSeconds.map(Double.init) ?? Double(1 << (attempt - 1))
        try await Task.sleep(nanoseconds: UInt64(min(wait, 30) * Double.random(in: 1...1.25) * 1_000_000_000))
        attempt += 1
      }
    }
  }
}
