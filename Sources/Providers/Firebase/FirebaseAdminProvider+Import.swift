import AuthCore
import Essentials
import JSONKit

/// `user import` into Firebase: `accounts:batchCreate`, at most 1,000 accounts per call and one
/// hash kind per call (`hashAlgorithm` BCRYPT, or SCRYPT with its parameters), `jobs` calls at a
/// time, with `sanityCheck`: an account whose address is taken is not uploaded and the rest are
/// (Identity Toolkit's documented behaviour), and a taken id is refused per account; both are
/// reported as skipped. Ids are kept; an account without one gets a new id.
extension FirebaseAdminProvider: AccountImporter {
  static let batchLimit = 1000

  package var accountsPerRequest: Int { Self.batchLimit }

  package func importAccounts(
    _ accounts: [PortableAccount], jobs: Int, stop: BatchStop?, progress: @escaping @Sendable ([ImportOutcome]) -> Void
  ) async -> [ImportOutcome] {
    // A record without an id gets one made from its address: a second run finds it there.
    let localIds = accounts.map { $0.id.flatMap { $0.isEmpty ? nil : $0 } ?? AccountImportPlan.derivedLocalId($0) }
    var outcomes = accounts.enumerated().map { ImportOutcome(index: $0.offset, account: $0.element, status: .imported) }
    for (index, account) in accounts.enumerated() where account.id == nil { outcomes[index].newId = localIds[index] }

    // A duplicate within one call would refuse the whole call (sanityCheck): the file's later
    // duplicates (same id, or same address in any case) fail here instead.
    var pending: [Int] = []
    var seenIds = Set<String>(minimumCapacity: accounts.count)
    var seenEmails = Set<String>(minimumCapacity: accounts.count)
    for index in accounts.indices {
      let email = accounts[index].email?.lowercasedKeepingLower
      if !seenIds.insert(localIds[index]).inserted || email.map({ !seenEmails.insert($0).inserted }) == true {
        Self.fail(
          &outcomes[index], AuthError(.validationFailed, message: "the id or address is already earlier in the file"))
      } else {
        pending.append(index)
      }
    }

    // 2. batchCreate, grouped by hash kind, 1,000 at a time.
    // A file has one hash kind or a few: the groups are found by a scan, in the order first met.
    var groups: [(group: AccountImportPlan.FirebaseHashGroup, items: [(index: Int, entry: JSONObject)])] = []
    let now = clock.unixNow
    for index in pending {
      let plan = AccountImportPlan.firebaseEntry(accounts[index], localId: localIds[index], now: now)
      outcomes[index].withoutPassword = plan.withoutPassword
      if let found = groups.lastIndex(where: { $0.group == plan.group }) {
        groups[found].items.append((index, plan.entry))
      } else {
        groups.append((plan.group, [(index, plan.entry)]))
      }
    }
    var calls: [(group: AccountImportPlan.FirebaseHashGroup, items: [(index: Int, entry: JSONObject)])] = []
    for (group, items) in groups {
      for start in stride(from: 0, to: items.count, by: Self.batchLimit) {
        calls.append((group, Array(items[start..<min(start + Self.batchLimit, items.count)])))
      }
    }
    // The file's own duplicates are known before anything is sent.
    progress(outcomes.filter { $0.status == .failed })
    let planned = outcomes
    let batches = calls
    // A call that never reached the backend (refused, no route) stops the calls after it.
    let unreachable = Guarded<AuthError?>(nil)
    let finished: [ImportOutcome] = await parallel(
      Array(batches.indices), jobs: jobs, stop: stop, halted: { unreachable.update { $0 } != nil }
    ) { number, stopped in
      let call = batches[number]
      let reason = unreachable.update { $0 }
      let results =
        stopped
        ? call.items.map { ImportOutcome.interrupted(planned[$0.index], by: reason, sent: false) }
        : await self.batchCreate(call.group, call.items, planned: planned)
      unreachable.keepUnreachable(results)
      progress(results)
      return results
    }
    for outcome in finished { outcomes[outcome.index] = outcome }
    return outcomes
  }

  /// One batchCreate call: the final outcome of each of its accounts.
  func batchCreate(
    _ group: AccountImportPlan.FirebaseHashGroup, _ items: [(index: Int, entry: JSONObject)], planned: [ImportOutcome]
  ) async -> [ImportOutcome] {
    var body = group.fields
    body["users"] = .array(items.map { .object($0.entry) })
    body["sanityCheck"] = true
    var results = items.map { planned[$0.index] }
    do {
      let (json, _) = try await ImportRetry.run {
        try await self.post("accounts:batchCreate", .object(body), as: .create)
      }
      for error in json["error"]?.array ?? [] {
        guard let position = error["index"]?.int, items.indices.contains(position) else { continue }
        let message = error["message"]?.string ?? ""
        if message.contains("exists") || message.contains("existing account") {
          results[position].status = .skippedExisting
          results[position].withoutPassword = nil
        } else {
          Self.fail(&results[position], AuthError(.providerError, message: message, providerCode: message))
        }
      }
    } catch let error as AuthError where error.isNoAnswer {
      results = results.map { ImportOutcome.interrupted($0, by: error, sent: true) }

    } catch let error as AuthError {
      for position in results.indices { Self.fail(&results[position], error) }
    } catch is CancellationError {
      results = results.map { ImportOutcome.interrupted($0, by: AuthError(.cancelled), sent: true) }
    } catch {
      for position in results.indices { Self.fail(&results[position], AuthError(.providerError, message: "\(error)")) }
    }
    return results
  }

  static func fail(_ outcome: inout ImportOutcome, _ error: AuthError) {
    outcome.status = .failed
    outcome.errorCode = error.code.rawValue
    outcome.message = error.message
    outcome.withoutPassword = nil
  }

  /// Runs `work` for each item, `jobs` at a time; what it returns, merged. Once `stop` is stopped
  /// the items not started yet are given to `work` with `stopped` true (it sends nothing).
  func parallel<Item: Sendable>(
    _ items: [Item], jobs: Int, stop: BatchStop?, halted: () -> Bool = { false },
    _ work: @escaping @Sendable (Item, _ stopped: Bool) async -> [ImportOutcome]
  ) async -> [ImportOutcome] {
    func stopping() -> Bool { Task.isCancelled || stop?.stopped == true || halted() }
    var merged: [ImportOutcome] = []
    var next = 0
    await withTaskGroup(of: [ImportOutcome].self) { group in
      while next < min(max(jobs, 1), items.count), !stopping() {
        let item = items[next]
        next += 1
        group.addTask(executorPreference: globalConcurrentExecutor) { await work(item, false) }
      }
      for await outcomes in group {
        merged += outcomes
        if next < items.count, !stopping() {
          let item = items[next]
          next += 1
          group.addTask(executorPreference: globalConcurrentExecutor) { await work(item, false) }
        }
      }
    }
    for item in items[next...] { merged += await work(item, true) }
    return merged
  }
}
