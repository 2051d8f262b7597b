import AuthCore
import Essentials
import JSONKit

/// "Lost my phone" (`accounts:update` with the enrolments to keep) and the account's trail,
/// which Identity Toolkit does not serve.
extension FirebaseAdminProvider {
  package func resetFactors(_ user: AdminUser, factorId: String?) async throws -> AdminUser {
    var kept: [JSON] = []
    if let wanted = factorId?.trimmingWhitespace, !wanted.isEmpty {
      guard user.factors.contains(where: { $0.id == wanted || $0.name == wanted }) else {
        let known = user.factors.map { $0.id + ($0.name.map { " (\($0))" } ?? "") }
        throw AuthError(
          .invalidRequest, message: "\(user.email.isEmpty ? user.id : user.email) has no second factor '\(wanted)'.",
          hint: known.isEmpty
            ? "It has no second factor at all." : "Its factors: " + known.joined(separator: ", ") + ".")
      }
      // The enrolments listed are kept, the others removed.
      kept = user.factors.filter { $0.id != wanted && $0.name != wanted }.map { factor in
        var object = JSONObject([("mfaEnrollmentId", .string(factor.id))])
        if let name = factor.name { object["displayName"] = .string(name) }
        return .object(object)
      }
    }
    return try await update(user, ["mfa": ["enrollments": .array(kept)]])
  }

  package func history(_ user: AdminUser, since: Int?) async throws -> [AccountEvent] {
    throw AuthError(
      .notSupported, message: "Firebase keeps no per-account history that its API can read.",
      hint:
        "Sign-ins and admin changes are in Cloud Logging when the project logs them (Identity Platform: user activity and admin "
        + "activity audit logs). In the console under Logging, or `gcloud logging read 'resource.type=\"identitytoolkit_project\"'`."
    )
  }
}
