import Crypto
import JSONKit

extension SupabaseData {
  /// `DELETE /admin/users/{id}` with `should_soft_delete: true` (`SoftDeleteUser`,
  /// `SoftDeleteUserIdentities`): the row stays with `deleted_at` set, its e-mail, phone and
  /// pending new e-mail replaced by a hash of id + value, no password, no pending tokens, empty
  /// metadata and identity data; every session ends. A second soft delete changes nothing.
  mutating func softDeleteUser(id: String, at now: Micros) {
    guard var user = users[id], user.deletedAt == nil else { return }
    user.email = Self.obfuscated(id: id, user.email)
    user.phone = String(Self.obfuscated(id: id, user.phone).prefix(15))
    user.newEmail = Self.obfuscated(id: id, user.newEmail)
    user.passwordHash = nil
    user.confirmationToken = ""
    user.recoveryToken = ""
    user.emailChangeToken = ""
    user.userMetadata = JSONObject()
    user.identity?.data = JSONObject()
    user.deletedAt = now
    for session in sessions(ofUser: id) { deleteSession(id: session.id) }
    saveUser(user)
  }

  /// `obfuscateValue`: base64url (no padding) of SHA-256(id + value).
  static func obfuscated(id: String, _ value: String) -> String {
    Base64URL.encode(Array(SHA256.hash(data: Array((id + value).utf8))))
  }
}
