import HTTPServerKit
import JSONKit

/// `/emulator/v1/config` (`GET` shows, `PUT {"like_production": true, "captcha": …, "smtp": …, "team": […]}` changes the mode) and
/// `/emulator/openapi.json`, the description of the emulator's own routes.
extension EmulatorRouter {
  static func configResponse(_ request: ServerRequest, mode: EmulatorMode) -> ServerResponse {
    switch request.method {
    case "GET":
      break
    case "PUT", "PATCH":
      guard let json = try? JSON.parse(bytes: request.body), let object = json.object else {
        return configError(#"body must be a JSON object, e.g. {"like_production": true}"#)
      }
      let known = ["like_production", "captcha", "smtp", "team"]
      for key in object.keys where !known.contains(key) {
        return configError("unknown setting \"\(key)\" (known: \(known.joined(separator: ", ")))")
      }
      // Everything is checked before anything changes.
      let likeProduction = object["like_production"]
      if let likeProduction, likeProduction.bool == nil { return configError("like_production must be true or false") }
      let captcha = object["captcha"]
      if let captcha, captcha.bool == nil { return configError("captcha must be true or false") }
      var smtp: EmulatorSMTP?
      if let value = object["smtp"] {
        guard let parsed = value.string.flatMap(EmulatorSMTP.init(rawValue:)) else {
          return configError("smtp must be \"built-in\" or \"custom\"")
        }
        smtp = parsed
      }
      var team: [String]?
      if let value = object["team"] {
        guard let list = value.array?.compactMap(\.string), list.count == value.array?.count,
          list.allSatisfy({ $0.contains("@") })
        else { return configError("team must be a list of e-mail addresses") }
        team = list
      }
      if let flag = likeProduction?.bool { mode.set(likeProduction: flag) }
      if let flag = captcha?.bool { mode.set(captcha: flag) }
      if let smtp { mode.set(smtp: smtp) }
      if let team { mode.set(team: team) }
    default:
      return ServerResponse(status: 405, headers: [("Allow", "GET, PUT, PATCH")])
    }
    let body: JSON = [
      "like_production": .bool(mode.likeProduction), "captcha": .bool(mode.captcha),
      "smtp": .string(mode.smtp.rawValue),
      "team": .array(mode.team.map(JSON.string)),
    ]
    return ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: body.bytes)
  }

  private static func configError(_ message: String) -> ServerResponse {
    let body: JSON = ["error": .string(message)]
    return ServerResponse(status: 400, headers: [("Content-Type", "application/json")], body: body.bytes)
  }

  static func openAPIResponse(_ request: ServerRequest) -> ServerResponse {
    guard request.method == "GET" || request.method == "HEAD" else {
      return ServerResponse(status: 405, headers: [("Allow", "GET, HEAD")])
    }
    return ServerResponse(status: 200, headers: [("Content-Type", "application/json")], body: openAPIDocument.bytes)
  }

  /// OpenAPI 3.0 for the emulator's control routes, then every route of both sides' tables.
  static let openAPIDocument: JSON = {
    func operation(_ summary: String, body: Bool = false) -> JSON {
      var object = JSONObject()
      object["summary"] = .string(summary)
      object["responses"] = ["200": ["description": "OK"]]
      if body {
        object["requestBody"] = ["content": ["application/json": ["schema": ["type": "object"]]]]
      }
      return .object(object)
    }
    let emailParameter: JSON = [
      "name": "email", "in": "query", "required": false, "schema": ["type": "string"],
      "description": "Only mails to this address",
    ]
    var outboxGet =
      operation("Mails the emulator \"sent\" (side, kind, email, code, link, time)").object ?? JSONObject()
    outboxGet["parameters"] = [emailParameter]
    var document: JSON = [
      "openapi": "3.0.3",
      "info": ["title": "authsh emulator", "version": "1"],
      "paths": [
        "/emulator/v1/outbox": ["get": .object(outboxGet)],
        "/emulator/v1/limits": [
          "get": operation(
            "The sign-in rate limiter: its numbers and the client addresses limited right now (like production only)")
        ],
        "/emulator/v1/faults": [
          "get": operation("List the active faults"),
          "put": operation("Replace the faults: {\"faults\":[…]}", body: true),
          "post": operation("Append a fault, or {\"faults\":[…]}", body: true),
          "delete": operation("Clear every fault"),
        ],
        "/emulator/v1/config": [
          "get": operation(
            "Show the mode: {\"like_production\": false, \"captcha\": false, \"smtp\": \"built-in\", \"team\": []}"),
          "put": operation(
            "Change it: {\"like_production\": true, \"captcha\": true, \"smtp\": \"custom\", \"team\": [\"ada@example.com\"]}",
            body: true),
        ],
      ],
    ]
    if case .object(var root) = document, var paths = root["paths"]?.object {
      addProductRoutes(to: &paths)
      root["paths"] = .object(paths)
      root["components"] = ["securitySchemes": securitySchemes]
      document = .object(root)
    }
    return document
  }()
}
