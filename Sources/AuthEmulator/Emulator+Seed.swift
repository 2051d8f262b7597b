import Synchronization

/// What `Emulator.seed` did.
package struct EmulatorSeedResult: Sendable, Equatable {
  /// The seed file, when there was one.
  package var file: String?
  package var created = 0
  /// Accounts whose e-mail or id was already there (a restart with the same `--state` and `--seed`).
  package var alreadyThere = 0

  package var summary: String {
    let noun = created == 1 ? "account" : "accounts"
    return "seeded \(created) \(noun)" + (alreadyThere > 0 ? " (\(alreadyThere) already there)" : "")
  }
}

extension Emulator {
  /// Creates the seed file's accounts on both sides: each side in one write, and the Supabase
  /// half taken back when the Firebase half cannot be stored, so nothing is half-seeded.
  @discardableResult
  package func seed(_ accounts: [EmulatorSeedAccount], from file: String? = nil) throws -> EmulatorSeedResult {
    let supabaseAccounts = accounts.filter { $0.backend == .supabase }
    let firebaseAccounts = accounts.filter { $0.backend == .firebase }
    let supabaseResult = try supabase.seed(supabaseAccounts)
    let firebaseResult: (created: [String], skipped: Int)
    do {
      firebaseResult = try firebase.seed(firebaseAccounts)
    } catch {
      supabase.unseed(supabaseResult.created)
      throw error
    }
    let result = EmulatorSeedResult(
      file: file, created: supabaseResult.created.count + firebaseResult.created.count,
      alreadyThere: supabaseResult.skipped + firebaseResult.skipped)
    seedResult.withLock { $0 = result }
    return result
  }
}
