import JSONKit

/// The project's `mfa` config (v2 `admin/v2/projects/{p}/config`, Identity Platform): TOTP second
/// factors must be switched on per project, `{"mfa": {"providerConfigs": [{"state": "ENABLED",
/// "totpProviderConfig": {"adjacentIntervals": 5}}]}}` with `?updateMask=mfa`. Like production a
/// project starts with TOTP off and an enrolment is refused until then; in the default mode it
/// starts on, as a local emulator should not need the switch (a PATCH decides in either mode).
extension FirebaseAPI {
  /// Production's refusal of a TOTP enrolment while the provider is off (what the JavaScript SDK
  /// shows as `auth/operation-not-allowed`, "TOTP based MFA not enabled.").
  static let totpDisabled = "OPERATION_NOT_ALLOWED : TOTP based MFA not enabled."

  /// The `mfa` section as GET shows it: empty while TOTP is off.
  static func mfaConfigJSON(_ project: FirebaseProject, likeProduction: Bool) -> JSON {
    guard let intervals = project.totpIntervals(likeProduction: likeProduction) else { return [:] }
    return [
      "state": "ENABLED",
      "providerConfigs": [["state": "ENABLED", "totpProviderConfig": ["adjacentIntervals": .int(intervals)]]],
    ]
  }

  /// `mfa` from a PATCH body when the mask names it (or the mask is empty and the body has it): a
  /// TOTP provider config in state ENABLED or MANDATORY switches TOTP on, anything else off.
  /// `adjacentIntervals` is 0 to 10 (5 when left out).
  static func applyMfaConfig(_ body: FirebaseBody, mask: [String], to project: FirebaseProject) throws {
    let named = mask.isEmpty ? body.has("mfa") : mask.contains { $0 == "mfa" || $0.hasPrefix("mfa.") }
    guard named else { return }
    guard body["mfa"] == nil || body["mfa"]?.object != nil else {
      throw FirebaseError.invalidArgument("/mfa should be object")
    }
    let providers = body["mfa"]?["providerConfigs"]?.array ?? []
    var intervals: Int?
    for provider in providers {
      guard let totp = provider["totpProviderConfig"] else { continue }
      let state = provider["state"]?.string ?? "MFA_STATE_UNSPECIFIED"
      guard state == "ENABLED" || state == "MANDATORY" else { continue }
      let value = totp["adjacentIntervals"]?.int ?? FirebaseMfaRoutes.totpAdjacentIntervals
      guard (0...10).contains(value) else {
        throw FirebaseError.bad("INVALID_CONFIG : adjacentIntervals must be between 0 and 10.")
      }
      intervals = value
    }
    try project.setTOTP(adjacentIntervals: intervals)
  }

}
