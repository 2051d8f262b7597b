import AuthCore
import Essentials

/// What a bulk change works on: the accounts to do, and (with `--resume`) what an earlier run
/// finished, counted and carried into a new `--report`.
struct BulkPlan {
  var list: BatchList
  var carried: [BatchRecord]
  /// Said when nothing is left to do.
  var nothingToDo: String
}
