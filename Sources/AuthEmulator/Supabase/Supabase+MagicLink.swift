import HTTPServerKit
import JSONKit

/// `POST /magiclink` (`magic_link.go`), the older spelling of `/otp` with an e-mail that the
/// JavaScript client no longer calls but GoTrue still serves: a confirmed address gets a magic
/// link, a new or unconfirmed one is signed up first (with confirmation on, the confirmation mail
/// is the link). Answers `{}`.
extension SupabaseAPI {
  func magicLink(_ request: ServerRequest) throws -> ServerResponse {
    let params = try RequestParams(request)
    let email = try params.string("email")
    if email.isEmpty { throw GoTrueError.validation("Password recovery requires an email", status: 422) }
    // Only `MagicLinkParams`' fields go on: the same flow as `/otp` with an e-mail and sign-ups on.
    var forwarded = JSONObject()
    forwarded["email"] = .string(email)
    for key in ["data", "code_challenge", "code_challenge_method"] {
      if let value = params.object[key] { forwarded[key] = value }
    }
    var otpRequest = request
    otpRequest.body = JSON.object(forwarded).bytes
    return try otp(otpRequest)
  }
}
