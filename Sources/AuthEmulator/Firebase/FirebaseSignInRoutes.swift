import Essentials
import JSONKit

/// `accounts:signUp`, `accounts:signInWithPassword` and `accounts:signInWithEmailLink`
/// (`operations.ts` `signUp`, `signInWithPassword`, `signInWithEmailLink`).
struct FirebaseSignInRoutes: Sendable {
  let context: FirebaseContext

  func signUp(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    let newHash = context.preHash(body.truthy("password"), projectId: call.projectId)
    let timestamp = context.now
    return try context.state.with(call.projectId) { project in
      var provider: String?
      var displayName: String?
      var emailVerified: Bool?
      var phoneNumber: String?
      var disabled: Bool?
      if call.privileged {
        if body.isTruthy("idToken") { try require(!body.isTruthy("localId"), "UNEXPECTED_PARAMETER : User ID") }
        if let localId = body.truthy("localId") {
          try require(project.user(localId: localId) == nil, "DUPLICATE_LOCAL_ID")
        }
        displayName = body.string("displayName")
        emailVerified = body.bool("emailVerified") ?? false
        if let phone = body.truthy("phoneNumber") {
          try require(FirebaseRules.isValidPhoneNumber(phone), "INVALID_PHONE_NUMBER : Invalid format.")
          try require(project.user(phoneNumber: phone) == nil, "PHONE_NUMBER_EXISTS")
          phoneNumber = phone
        }
        if body.bool("disabled") == true { disabled = true }
      } else {
        try require(!body.isTruthy("localId"), "UNEXPECTED_PARAMETER : User ID")
        if body.isTruthy("idToken") || body.isTruthy("password") || body.isTruthy("email") {
          displayName = body.string("displayName")
          emailVerified = false
          try require(body.isTruthy("email"), "MISSING_EMAIL")
          try require(body.isTruthy("password"), "MISSING_PASSWORD")
          try context.requirePasswordSignIn(project, signUp: true)
          provider = FirebaseTokens.passwordProvider
        } else {
          if let tenant = project.tenant { try require(tenant.enableAnonymousUser, "ADMIN_ONLY_OPERATION") }
          provider = FirebaseTokens.anonymousProvider
        }
      }
      var email: String?
      if let given = body.string("email"), !given.isEmpty || provider != nil {
        try require(FirebaseRules.isValidEmail(given), "INVALID_EMAIL")
        let canonical = FirebaseRules.canonicalEmail(given)
        try require(project.user(email: canonical) == nil, "EMAIL_EXISTS")
        email = canonical
      }
      if body.isTruthy("password") {
        try require(newHash != nil, FirebaseRules.weakPassword)
      }
      var existing: FirebaseUser?
      if let idToken = body.truthy("idToken") { existing = try context.parseIdToken(project, idToken).user }
      if existing == nil, !call.privileged { try context.limitNewAccount(call.request) }

      var user =
        existing
        ?? FirebaseUser(
          localId: body.truthy("localId") ?? project.newLocalId(),
          createdAt: FirebaseTime.milliseconds(timestamp))
      // An account the admin API creates has never signed in: production leaves `lastLoginAt` out
      // (the Admin SDKs' `lastSignInTime` is null). firebase-tools' emulator sets it to the creation
      // time; authsh's does what production does. A sign-up signs in, so it is set there.
      if !(call.privileged && existing == nil) { user.lastLoginAt = FirebaseTime.milliseconds(timestamp) }
      if call.privileged || provider == FirebaseTokens.passwordProvider {
        user.displayName = displayName
        user.emailVerified = emailVerified
      }
      if call.privileged {
        user.photoUrl = body.string("photoUrl")
        if let phoneNumber { user.phoneNumber = phoneNumber }
        if let disabled { user.disabled = disabled }
      }
      if let email { user.email = email }
      if let newHash {
        user.passwordHash = newHash
        user.passwordUpdatedAt = FirebaseTime.milliseconds(timestamp)
        user.validSince = FirebaseTime.seconds(timestamp)
      }
      try project.save(user)

      var response = JSONObject()
      response["kind"] = "identitytoolkit#SignupNewUserResponse"
      response["localId"] = .string(user.localId)
      if let name = user.displayName { response["displayName"] = .string(name) }
      if let email = user.email { response["email"] = .string(email) }
      if let provider {
        let issued = try context.issueTokens(project, user, provider: provider)
        response.merge(issued.tokens)
      }
      return .object(response)
    }
  }

  func signInWithPassword(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    try require(body.has("email"), "MISSING_EMAIL")
    try require(FirebaseRules.isValidEmail(body.string("email") ?? ""), "INVALID_EMAIL")
    guard let password = body.truthy("password") else { throw FirebaseError.bad("MISSING_PASSWORD") }
    if body.isTruthy("captchaResponse") || body.isTruthy("captchaChallenge") {
      throw FirebaseError.notImplemented("captcha unimplemented")
    }
    if body.isTruthy("idToken") || body.isTruthy("pendingIdToken") {
      throw FirebaseError.notImplemented(
        "idToken / pendingIdToken is no longer in use and unsupported by the Auth Emulator.")
    }
    let email = FirebaseRules.canonicalEmail(body.string("email") ?? "")

    // Checks that need the state, then the hash check outside the lock, then the sign-in itself.
    let (candidate, privacy) = try context.state.with(call.projectId) { project -> (FirebaseUser, Bool) in
      try context.requirePasswordSignIn(project, signUp: false)
      let privacy = context.emailPrivacy(project)
      guard let user = project.user(email: email) else {
        throw FirebaseError.bad(privacy ? "INVALID_LOGIN_CREDENTIALS" : "EMAIL_NOT_FOUND")
      }
      try require(user.disabled != true, "USER_DISABLED")
      return (user, privacy)
    }
    let wrongPassword = privacy ? "INVALID_LOGIN_CREDENTIALS" : "INVALID_PASSWORD"
    guard let hash = candidate.passwordHash, StoredPasswordHash.check(password, against: hash) == .match else {
      throw FirebaseError.bad(wrongPassword)
    }
    // An imported hash (bcrypt, or scrypt with other parameters) is replaced by the project's own
    // scrypt on the first sign-in, as production does.
    let hashConfig = context.state.hashConfig(call.projectId)
    let rehashed =
      hash.hasPrefix(FirebaseScryptHash.prefix) && (try? FirebaseScryptHash.parse(hash).get())?.parameters == hashConfig
      ? nil : FirebaseContext.nativeHash(password, config: hashConfig)
    return try context.state.with(call.projectId) { project in
      // The account may have changed while the hash was checked.
      guard var user = project.user(localId: candidate.localId), user.email == email else {
        throw FirebaseError.bad(privacy ? "INVALID_LOGIN_CREDENTIALS" : "EMAIL_NOT_FOUND")
      }
      try require(user.passwordHash == candidate.passwordHash, wrongPassword)
      try require(user.disabled != true, "USER_DISABLED")
      if let rehashed {
        user.passwordHash = rehashed
        try project.save(user)
      }
      var response = JSONObject()
      response["kind"] = "identitytoolkit#VerifyPasswordResponse"
      response["registered"] = true
      response["localId"] = .string(user.localId)
      response["email"] = .string(email)
      // Production always names the display name, empty when there is none.
      if context.mode.likeProduction { response["displayName"] = .string(user.displayName ?? "") }
      // A second factor is due: 200 with a pending credential and no tokens (`FirebaseMfaRoutes.swift`).
      if !user.mfaInfo.isEmpty {
        return context.mfaPendingResponse(project, user, provider: FirebaseTokens.passwordProvider, base: response)
      }
      user.lastLoginAt = FirebaseTime.milliseconds(context.now)
      let issued = try context.issueTokens(project, user, provider: FirebaseTokens.passwordProvider)
      response.merge(issued.tokens)
      return .object(response)
    }
  }

  // MARK: - accounts:signInWithEmailLink

  /// `accounts:signInWithEmailLink` (`operations.ts` `signInWithEmailLink`): the `EMAIL_SIGNIN` code
  /// of `sendOobCode` signs the address in, creating the account when there is none. Such an
  /// account lists the `password` provider but has no password (`emailLinkSignin`).
  func signInWithEmailLink(_ call: FirebaseCall) throws -> JSON {
    let body = call.body
    let timestamp = context.now
    return try context.state.with(call.projectId) { project in
      let fromIdToken = try body.truthy("idToken").map { try context.parseIdToken(project, $0).user }
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
        return context.mfaPendingResponse(project, user, provider: FirebaseTokens.passwordProvider, base: response)
      }
      user.lastLoginAt = FirebaseTime.milliseconds(timestamp)
      response.merge(try context.issueTokens(project, user, provider: FirebaseTokens.passwordProvider).tokens)
      return .object(response)
    }
  }
}
