import Essentials
import HTTPServerKit

/// Like production only: the hosted service's quotas (the Firebase Authentication limits page),
/// refused in production's envelope: HTTP 400 with the code as the message.
extension FirebaseContext {
  /// 100 new accounts an hour per address (`TOO_MANY_ATTEMPTS_TRY_LATER`). The address is the first
  /// `X-Forwarded-For` value, else this machine. Admin calls are not counted.
  func limitNewAccount(_ request: ServerRequest) throws {
    guard mode.likeProduction else { return }
    let forwarded =
      request.header("X-Forwarded-For")?.split(separator: ",").first
      .map { $0.trimmingSpaces } ?? ""
    try require(
      mode.firebaseSignUpLimiter.allow(key: forwarded.isEmpty ? "local" : forwarded, at: now),
      "TOO_MANY_ATTEMPTS_TRY_LATER")
  }

  /// The no-cost plan's mails a day, by kind (`QUOTA_EXCEEDED : Exceeded daily quota for …`). Links
  /// returned to an admin (`returnOobLink`) are not mails and are not counted.
  func takeMailQuota(_ requestType: String) throws {
    guard mode.likeProduction, let quota = FirebaseMailQuota(requestType: requestType),
      let limiter = mode.firebaseMailQuotas[quota]
    else { return }
    try require(limiter.allow(at: now), quota.error)
  }

  /// Wrong second-factor codes of one account (`mfaSignIn:finalize`): after
  /// `ProductionLimits.Firebase.secondFactorGuesses` in the window, refused (the right code too)
  /// until it is over. Checked before the code; the account's key is its store and localId.
  func checkSecondFactorGuesses(_ key: String) throws {
    guard mode.likeProduction else { return }
    try require(mode.firebaseSecondFactorGuesses.allows(key, at: now), EmulatorFault.Preset.tooManyAttempts)
  }

  /// Counts a wrong code (like production only), or forgets the count after a right one.
  func recordSecondFactorGuess(_ key: String, right: Bool) {
    if right {
      mode.firebaseSecondFactorGuesses.recordSuccess(key)
    } else if mode.likeProduction {
      mode.firebaseSecondFactorGuesses.recordFailure(key, at: now)
    }
  }
}
