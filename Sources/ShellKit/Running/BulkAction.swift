import AuthCore
import Essentials

/// What a change command does to each account of a batch (`--from FILE`).
struct BulkAction: Sendable {
  /// "confirm": for "would confirm" in a dry run.
  var verb: String
  /// "Confirmed": for the line of a changed account.
  var done: String
  var requires: AdminChange?
  /// Whether a change that timed out or met a 5xx may be sent again. True for the set-operations
  /// (confirm, disable, enable, update, sign-out, factor reset, delete): sending one twice leaves
  /// the account as sending it once does. False where a second send is a second effect (resend:
  /// another mail); those are retried after a rate limit only, which refused the first.
  var retryTransient = true
  /// The change needs the whole account (factors, identities), not just its state.
  var wholeAccount = false
  /// An account that is gone is as asked (delete): `--resume` counts one whose earlier change got
  /// no answer as done when it is not found.
  var goneMeansDone = false
  /// Why nothing needs to be sent to `user` (it is already as asked); nil when a change is needed.
  var already: @Sendable (AdminUser) -> String? = { _ in nil }
  /// Makes the change and returns the account as it is after it; the Int is the attempt (1 for
  /// the first).
  var apply: @Sendable (any AdminProvider, AdminUser, Int) async throws -> AdminUser
}

extension CommandSpec {
  /// A change command's `--from FILE` (not `user show`'s, which has the same name).
  package var takesBulkFrom: Bool { flags.contains(FlagKey.bulkFrom.spec) }
}
