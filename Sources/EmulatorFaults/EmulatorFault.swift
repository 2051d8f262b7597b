import JSONKit

/// One injected fault: which requests it catches, how often, and what they get instead.
///
/// Wire form (`/emulator/v1/faults`): `{"method":"POST","path":"/auth/v1/token","times":1,
/// "latency_ms":0,"status":429,"headers":{"Retry-After":"30"},"body":"raw text","json":{…},
/// "preset":"html502"}`; every field is optional.
package struct EmulatorFault: Sendable, Equatable {
  /// Canned misbehaviours.
  package enum Preset: String, Sendable, CaseIterable {
    /// 502 with an HTML page, as a proxy in front of the API sends it.
    case html502
    /// 200 `application/json` whose body is cut in half.
    case truncatedJSON = "truncated_json"
    /// Close the connection without answering.
    case drop
    /// 429 `over_request_rate_limit` (GoTrue body); outside `/auth/v1`, production's
    /// 400 `TOO_MANY_ATTEMPTS_TRY_LATER` business error.
    case rateLimit = "rate_limit"
    /// 500 with a JSON error body.
    case serverError = "server_error"
  }

  /// HTTP method to match (upper case); nil matches any.
  package var method: String?
  /// Exact path (without the query) to match; nil matches any.
  package var path: String?
  /// How many matching requests the fault applies to; 0 = until cleared.
  package var times: Int
  /// Delay before answering. With nothing else set, the request is then served normally.
  package var latencyMs: Int
  package var status: Int?
  /// Added to (or replacing) the answer's headers; with nothing else set, added to the normal answer.
  package var headers: [Header]
  /// Raw body text.
  package var body: String?
  /// JSON body (wins over `body`).
  package var json: JSON?
  package var preset: Preset?

  package struct Header: Sendable, Equatable {
    package var name: String
    package var value: String
    package init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  package init(
    method: String? = nil, path: String? = nil, times: Int = 1, latencyMs: Int = 0, status: Int? = nil,
    headers: [Header] = [], body: String? = nil, json: JSON? = nil, preset: Preset? = nil
  ) {
    self.method = method?.uppercased()
    self.path = path
    self.times = times
    self.latencyMs = latencyMs
    self.status = status
    self.headers = headers
    self.body = body
    self.json = json
    self.preset = preset
  }

  /// True when the fault replaces the answer (otherwise it only delays it or adds headers).
  package var replacesResponse: Bool { status != nil || body != nil || json != nil || preset != nil }

  package func matches(method: String, path: String) -> Bool {
    (self.method == nil || self.method == "*" || self.method == method.uppercased())
      && (self.path == nil || self.path == path)
  }
}

/// Why a fault description was refused.
package struct EmulatorFaultError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}

// MARK: - JSON form

extension EmulatorFault {
  package init(json value: JSON) throws {
    guard let object = value.object else { throw EmulatorFaultError("a fault must be a JSON object") }
    let known: Set<String> = ["method", "path", "times", "latency_ms", "status", "headers", "body", "json", "preset"]
    if let unknown = object.keys.first(where: { !known.contains($0) }) {
      throw EmulatorFaultError("unknown fault field \"\(unknown)\"")
    }
    func string(_ key: String) throws -> String? {
      guard let field = object[key], !field.isNull else { return nil }
      guard let text = field.string else { throw EmulatorFaultError("\(key) must be a string") }
      return text
    }
    func int(_ key: String) throws -> Int? {
      guard let field = object[key], !field.isNull else { return nil }
      guard let number = field.int else { throw EmulatorFaultError("\(key) must be an integer") }
      return number
    }
    var headers: [Header] = []
    if let field = object["headers"], !field.isNull {
      guard let headerObject = field.object else { throw EmulatorFaultError("headers must be an object of strings") }
      for (name, headerValue) in headerObject.pairs {
        guard let text = headerValue.string else { throw EmulatorFaultError("header \(name) must be a string") }
        headers.append(Header(name: name, value: text))
      }
    }
    var preset: Preset?
    if let name = try string("preset") {
      guard let known = Preset(rawValue: name) else {
        let names = Preset.allCases.map(\.rawValue).joined(separator: ", ")
        throw EmulatorFaultError("unknown preset \"\(name)\" (one of: \(names))")
      }
      preset = known
    }
    let jsonBody: JSON? = object["json"].flatMap { $0.isNull ? JSON?.none : $0 }
    self.init(
      method: try string("method"), path: try string("path"), times: try int("times") ?? 1,
      latencyMs: try int("latency_ms") ?? 0, status: try int("status"), headers: headers,
      body: try string("body"), json: jsonBody, preset: preset)
    try validate()
  }

  func validate() throws {
    if times < 0 { throw EmulatorFaultError("times must be 0 (until cleared) or more") }
    if latencyMs < 0 || latencyMs > 600_000 { throw EmulatorFaultError("latency_ms must be between 0 and 600000") }
    if let status, !(100...599).contains(status) { throw EmulatorFaultError("status must be between 100 and 599") }
    if let path, !path.hasPrefix("/") { throw EmulatorFaultError("path must start with /") }
  }

  /// The wire form; `times` is what is left.
  package var jsonValue: JSON {
    var object = JSONObject()
    if let method { object["method"] = .string(method) }
    if let path { object["path"] = .string(path) }
    object["times"] = .int(times)
    object["latency_ms"] = .int(latencyMs)
    if let status { object["status"] = .int(status) }
    if !headers.isEmpty {
      object["headers"] = .object(JSONObject(headers.map { ($0.name, JSON.string($0.value)) }))
    }
    if let body { object["body"] = .string(body) }
    if let json { object["json"] = json }
    if let preset { object["preset"] = .string(preset.rawValue) }
    return .object(object)
  }
}
