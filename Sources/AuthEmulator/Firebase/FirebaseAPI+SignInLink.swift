import Essentials
import JSONKit

/// `accounts:signInWithEmailLink` (`operations.ts` `signInWithEmailLink`): the `EMAIL_SIGNIN` code
/// of `sendOobCode` signs the address in, creating the account when there is none. Such an
/// account lists the `password` provider but has no password (`emailLinkSignin`).
extension FirebaseAPI {
  func signInWithEmailLink(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    let timestamp = now
    return try state.with(call.projectId) { project in
      let fromIdToken = try body.truthy("idToken").map { try parseIdToken(project, $0).user }
      guard let given = body.truthy("email") else { throw FirebaseError.bad("MISSING_EMAIL") }
      let email = FirebaseRules.canonicalEmail(given)
      guard let code = body.truthy("oobCode") else { throw FirebaseError.bad("MISSING_OOB_CODE") }
      guard let oob = project.oob(code), oob.requestType == "EMAIL_SIGNIN" else {
        throw FirebaseError.bad("INVALID_OOB_CODE")
      }
      try require(email == oob.email, "INVALID_EMAIL : The email provided does not match the sign-in email address.")
      try project.deleteOob(code)
      let fromEmail = project.user(email: email)
      var user: FirebaseUser
      let isNewUser = fromIdToken == nil && fromEmail == nil
      if let existing = fromIdToken ?? fromEmail {
        try require(existing.disabled != true, "USER_DISABLED")
        if let fromIdToken, let fromEmail { try require(fromIdToken.localId == fromEmail.localId, "EMAIL_EXISTS") }
        user = existing
      } else {
        user = FirebaseUser(localId: project.newLocalId(), createdAt: FirebaseTime.milliseconds(timestamp))
      }
      user.email = email
      user.emailVerified = true
      user.emailLinkSignin = true
      try project.save(user)
      var response = JSONObject()
      response["kind"] = "identitytoolkit#EmailLinkSigninResponse"
      response["email"] = .string(email)
      response["localId"] = .string(user.localId)
      response["isNewUser"] = .bool(isNewUser)
      if !user.mfaInfo.isEmpty {
        return mfaPendingResponse(project, user, provider: FirebaseTokens.passwordProvider, base: response)
      }
      user.lastLoginAt = FirebaseTime.milliseconds(timestamp)
      response.merge(try issueTokens(project, user, provider: FirebaseTokens.passwordProvider).tokens)
      return .object(response)
    }
  }
}
