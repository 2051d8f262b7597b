import Essentials
import HTTPServerKit
import JSONKit

/// `GET /emulator/action?mode=…&oobCode=…&apiKey=…`: "clicking" an e-mailed link (`handlers.ts`).
/// Answers `{"authEmulator":{"success"|"error",…}}`, or 303 to `continueUrl`.
struct FirebaseActionRoutes: Sendable {
  let context: FirebaseContext
  /// A reset link sets the new password as `accounts:resetPassword` does.
  let passwordReset: FirebaseOobRoutes
  /// The other links apply their code as `accounts:update` does.
  let updates: FirebaseUpdateRoutes

  func emulatorAction(_ request: ServerRequest) -> ServerResponse {
    guard let apiKey = request.query("apiKey"), !apiKey.isEmpty else {
      return actionReply(
        400,
        [
          "error": "missing apiKey query parameter",
          "instructions": "Please modify the URL to specify an apiKey, such as ...&apiKey=YOUR_API_KEY",
        ])
    }
    guard let code = request.query("oobCode"), !code.isEmpty else {
      return actionReply(
        400,
        [
          "error": "missing oobCode query parameter",
          "instructions": "Please modify the URL to specify an oobCode, such as ...&oobCode=YOUR_OOB_CODE",
        ])
    }
    let continueUrl = request.query("continueUrl").flatMap { $0.isEmpty ? nil : $0 }
    // A tenant's link names its tenant (`&tenantId=…`, as the official emulator's links do).
    let stateKey = FirebaseProject.stateKey(
      projectId: context.state.defaultProjectId, tenantId: request.query("tenantId").flatMap { $0.isEmpty ? nil : $0 })
    let oob = context.state.with(stateKey) { $0.oob(code) }
    do {
      switch request.query("mode") {
      case "resetPassword":
        guard let oob, oob.requestType == "PASSWORD_RESET" else {
          return actionReply(
            400,
            [
              "error": "Your request to reset your password has expired or the link has already been used.",
              "instructions": "Try resetting your password again.",
            ])
        }
        let template = JSON.string(oob.oobLink + "&newPassword=NEW_PASSWORD_HERE")
        guard let newPassword = request.query("newPassword"), !newPassword.isEmpty else {
          return actionReply(
            400,
            [
              "error": "missing newPassword query parameter",
              "instructions": .string(
                "To reset the password for \(oob.email), send an HTTP GET request to the following URL."),
              "instructions2": "You may use a web browser or any HTTP client, such as curl.", "urlTemplate": template,
            ])
        }
        guard newPassword != "NEW_PASSWORD_HERE" else {
          return actionReply(
            400,
            [
              "error": "newPassword must be something other than 'NEW_PASSWORD_HERE'",
              "instructions": "The string 'NEW_PASSWORD_HERE' is just a placeholder.",
              "instructions2": "Please change the URL to specify a new password instead.", "urlTemplate": template,
            ])
        }
        let reply = try passwordReset.resetPassword(
          actionCall(request, ["oobCode": .string(code), "newPassword": .string(newPassword)]))
        return continueUrl.map(redirect)
          ?? actionReply(
            200,
            [
              "success": "The password has been successfully updated.",
              "email": reply["email"] ?? .null,
            ])
      case "verifyEmail":
        let reply = try applyLink(request, code, failure: "verify your email", retry: "Try verifying your email again.")
        return continueUrl.map(redirect)
          ?? actionReply(
            200,
            [
              "success": "The email has been successfully verified.",
              "email": reply["email"] ?? .null,
            ])
      case "verifyAndChangeEmail":
        let reply = try applyLink(request, code, failure: "change your email", retry: "Try changing your email again.")
        return continueUrl.map(redirect)
          ?? actionReply(
            200,
            [
              "success": "The email has been successfully changed.",
              "newEmail": reply["newEmail"] ?? .null,
            ])
      case "recoverEmail":
        let retry =
          "If you're trying to test the reverting email flow, try changing the email again to generate a new link."
        guard oob?.requestType == "RECOVER_EMAIL" else {
          return actionReply(
            400, ["error": "Requested mode does not match the OOB code provided.", "instructions": .string(retry)])
        }
        let reply = try applyLink(request, code, failure: "revert your email", retry: retry)
        return actionReply(
          200, ["success": "The email has been successfully reset.", "email": reply["email"] ?? .null])
      case "signIn":
        guard let continueUrl else {
          return actionReply(
            400,
            [
              "error": "Missing continueUrl query parameter",
              "instructions": "To sign in, append &continueUrl=YOUR_APP_URL to the link.",
            ])
        }
        let extra = request.queryItems.filter { $0.name != "continueUrl" }
        let separator = continueUrl.contains("?") ? "&" : "?"
        return redirect(continueUrl + separator + FormCoding.encode(extra.map { ($0.name, $0.value) }))
      default:
        return actionReply(400, ["error": "Invalid mode"])
      }
    } catch let failure as ActionFailure {
      return actionReply(400, ["error": .string(failure.error), "instructions": .string(failure.instructions)])
    } catch let error as FirebaseError {
      return ServerResponse(
        status: error.httpStatus, headers: [("Content-Type", "application/json; charset=utf-8")],
        body: Array(error.json.prettyText.utf8))
    } catch {
      return actionReply(500, ["error": .string("\(error)")])
    }
  }

  private struct ActionFailure: Error {
    var error: String
    var instructions: String
  }

  /// Applies a code through `accounts:update {oobCode}`; unknown, used or mismatched codes become
  /// the handler's friendly 400.
  private func applyLink(_ request: ServerRequest, _ code: String, failure: String, retry: String) throws -> JSON {
    do {
      return try updates.update(actionCall(request, ["oobCode": .string(code)]))
    } catch let error as FirebaseError where error.httpStatus == 501 || error.message == "INVALID_OOB_CODE" {
      throw ActionFailure(
        error: "Your request to \(failure) has expired or the link has already been used.",
        instructions: retry)
    }
  }

  private func actionCall(_ request: ServerRequest, _ body: JSON) -> FirebaseCall {
    let tenantId = request.query("tenantId").flatMap { $0.isEmpty ? nil : $0 }
    return FirebaseCall(
      request: request, body: FirebaseBody(body.object ?? JSONObject()), privileged: false,
      projectId: FirebaseProject.stateKey(projectId: context.state.defaultProjectId, tenantId: tenantId),
      tenantId: tenantId)
  }

  private func actionReply(_ status: Int, _ body: JSON) -> ServerResponse {
    let json: JSON = ["authEmulator": body]
    return ServerResponse(
      status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
      body: Array(json.prettyText.utf8))
  }

  private func redirect(_ location: String) -> ServerResponse {
    ServerResponse(
      status: 303, headers: [("Location", location), ("Content-Type", "text/plain; charset=utf-8")],
      body: Array("See Other. Redirecting to \(location)".utf8))
  }
}
