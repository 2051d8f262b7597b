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

  public func importAccounts(
    _ accounts: [PortableAccount], jobs: Int, progress: @escaping @Sendable ([ImportOutcome]) -> Void
  ) async -> [ImportOutcome] {
    let localIds = accounts.map { $0.id.flatMap { $0.isEmpty ? nil : $0 } ?? AccountImportPlan.newLocalId() }
    var outcomes = accounts.enumerated().map { ImportOutcome(index: $0.offset, account: $0.element, status: .imported) }
    for (index, account) in accounts.enumerated() where account.id == nil { outcomes[index].newId = localIds[index] }

    // A duplicate within one call would refuse the whole call (sanityCheck): the file's later
    // duplicates (same id, or same address in any case) fail here instead.
    var pending: [Int] = []
    var seenIds = Set<String>()
    var seenEmails = Set<String>()
    for index in accounts.indices {
      let email = accounts[index].email?.lowercased()
      if !seenIds.insert(localIds[index]).inserted || email.map({ !seenEmails.insert($0).inserted }) == true {
        Self.fail(&outcomes[index], AuthError(.validationFailed, message: "the id or address is already earlier in the file"))
      } else {
        pending.append(index)
      }
    }

    // 2. batchCreate, grouped by hash kind, 1,000 at a time.
    var groups: [AccountImportPlan.FirebaseHashGroup: [(index: Int, entry: JSONObject)]] = [:]
    var order: [AccountImportPlan.FirebaseHashGroup] = []
    for index in pending {
      let plan = AccountImportPlan.firebaseEntry(accounts[index], localId: localIds[index])
      outcomes[index].withoutPassword = plan.withoutPassword
      if groups[plan.group] == nil { order.append(plan.group) }
      groups[plan.group, default: []].append((index, plan.entry))
    }
    var calls: [(group: AccountImportPlan.FirebaseHashGroup, items: [(index: Int, entry: JSONObject)])] = []
    for group in order {
      let items = groups[group] ?? []
      for start in stride(from: 0, to: items.count, by: Self.batchLimit) {
        calls.append((group, Array(items[start..<min(start + Self.batchLimit, items.count)])))
      }
    }
    let planned = outcomes
    let batches = calls
    let failures: [Int: AuthError?] = await parallel(Array(batches.indices), jobs: jobs) { number in
      let call = batches[number]
      var body = call.group.fields
      body["users"] = .array(call.items.map { .object($0.entry) })
      body["sanityCheck"] = true
      do {
        let (json, _) = try await ImportRetry.run { try await self.post("accounts:batchCreate", .object(body), as: .create) }
        let results = (json["error"]?.array ?? []).compactMap { error -> (Int, AuthError?)? in
          guard let position = error["index"]?.int, call.items.indices.contains(position) else { return nil }
          let message = error["message"]?.string ?? ""
          let existing = message.contains("exists") || message.contains("existing account")
          return (call.items[position].index, existing ? nil : AuthError(.providerError, message: message, providerCode: message))
        }
        progress(call.items.map { planned[$0.index] })
        return results
      } catch let error as AuthError {
        return call.items.map { ($0.index, error) }
      } catch {
        return call.items.map { ($0.index, AuthError(.providerError, message: "\(error)")) }
      }
    }
    for (index, failure) in failures {
      if let failure {
        Self.fail(&outcomes[index], failure)
      } else {
        outcomes[index].status = .skippedExisting
        outcomes[index].withoutPassword = nil
      }
    }
    return outcomes
  }

  static func fail(_ outcome: inout ImportOutcome, _ error: AuthError) {
    outcome.status = .failed
    outcome.errorCode = error.code.rawValue
    outcome.message = error.message
    outcome.withoutPassword = nil
  }

  /// Runs `work` for each item, `jobs` at a time; the pairs it returns, merged.
  func parallel<Item: Sendable>(
    _ items: [Item], jobs: Int, _ work: @escaping @Sendable (Item) async -> [(Int, AuthError?)]
  ) async -> [Int: AuthError?] {
    await withTaskGroup(of: [(Int, AuthError?)].self) { group in
      var merged: [Int: AuthError?] = [:]
      var next = 0
      for _ in 0..<min(max(jobs, 1), items.count) {
        let item = items[next]
        next += 1
        group.addTask(executorPreference: globalConcurrentExecutor) { await work(item) }
      }
      for await pairs in group {
        for (index, error) in pairs { merged[index] = error }
        if next < items.count {
          let item = items[next]
          next += 1
          group.addTask(executorPreference: globalConcurrentExecutor) { await work(item) }
        }
      }
      return merged
    }
  }
}
