import AuthCore
import Essentials

/// The account a change command acts on, and where its sentence goes.
struct ChangeStep {
  let provider: any AdminProvider
  let user: AdminUser
  /// The account's e-mail address, or its id when it has none.
  var who: String { user.email.isEmpty ? user.id : user.email }
}
