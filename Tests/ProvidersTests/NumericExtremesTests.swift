import AuthCore
import AuthTestSupport
import Foundation
import HTTPServerKit
import JSONKit
import Testing

/// Integer extremes, non-finite numbers and numeric strings in every numeric field a provider
/// decodes, sent by a fixture server over a real socket: nothing traps; the answer is used (with a
/// plausible expiry) or refused with a catalogue error, and a refused session is never saved.
///
/// Bounded and deterministic: 44 values × 12 Supabase fields + 44 × 10 Firebase fields = 968
/// answers (`inputCount` below checks the figure).
@Suite(.serialized) struct NumericExtremesTests {
  /// JSON number literals, as raw text (some are not representable as `Int` or even `Double`).
  static let numbers = [
    "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
    "18446744073709551616", "99999999999999999999999999999999", "1e300", "-1e300", "1e400", "-1e400", "0", "-0",
    "-1", "1.5", "0.1", "4.9e-324", "253402300800", "9007199254740993",
  ]
  /// The same kinds of values as JSON strings (Google APIs send 64-bit numbers as strings).
  static let strings = [
    "9223372036854775807", "-9223372036854775807", "-9223372036854775808", "9223372036854775808",
    "18446744073709551616", "99999999999999999999999999999999", "1e300", "-1e300", "inf", "-inf", "Infinity",
    "NaN", "nan", "-0", "0", "", " ", "1.5", "-1", "0x7fffffffffffffff", "1_000", "+5", "12abc", "3600",
    "253402300799999", "999999999999",
  ]
  /// Every value as the JSON text to splice in.
  static let literals = numbers + strings.map { JSON.string($0).compactText }

  struct Field: Sendable, CustomStringConvertible {
    var provider: ProviderKind
    var name: String
    var line: String
    var path: String
    var signedIn = false
    /// The answer's JSON text with `literal` spliced into the field.
    var body: @Sendable (String) -> String
    var status = 200
    var headers: @Sendable (String) -> [(String, String)] = { _ in [] }
    var description: String { "\(provider.rawValue) \(name)" }
  }

  static let login = "login ada@example.com --password correct-horse-battery"

  static let supabaseFields: [Field] = {
    let session = Fixture.text("supabase/session.json")
    let user = Fixture.text("supabase/user.json")
    let token = "/auth/v1/token"
    return [
      Field(provider: .supabase, name: "expires_at", line: login, path: token) { splice(session, ["expires_at"], $0) },
      Field(provider: .supabase, name: "expires_in", line: login, path: token) {
        splice(session, ["expires_in"], $0, removing: ["expires_at"])
      },
      Field(provider: .supabase, name: "access_token exp", line: login, path: token) {
        spliceClaim(session, ["access_token"], "exp", $0, removing: ["expires_at", "expires_in"])
      },
      Field(provider: .supabase, name: "refresh expires_in", line: "refresh", path: token, signedIn: true) {
        splice(session, ["expires_in"], $0, removing: ["expires_at"])
      },
      Field(provider: .supabase, name: "user.created_at", line: login, path: token) {
        splice(session, ["user", "created_at"], $0)
      },
      Field(provider: .supabase, name: "user.last_sign_in_at", line: login, path: token) {
        splice(session, ["user", "last_sign_in_at"], $0)
      },
      Field(provider: .supabase, name: "user.email_confirmed_at", line: login, path: token) {
        splice(session, ["user", "email_confirmed_at"], $0)
      },
      Field(provider: .supabase, name: "whoami created_at", line: "whoami", path: "/auth/v1/user", signedIn: true) {
        splice(user, ["created_at"], $0)
      },
      Field(provider: .supabase, name: "whoami last_sign_in_at", line: "whoami", path: "/auth/v1/user", signedIn: true)
      {
        splice(user, ["last_sign_in_at"], $0)
      },
      Field(
        provider: .supabase, name: "whoami code", line: "whoami", path: "/auth/v1/user", signedIn: true,
        body: { #"{"code":"# + $0 + #","error_code":"unexpected_failure","msg":"x"}"# }, status: 500),
      Field(
        provider: .supabase, name: "429 Retry-After", line: login, path: token,
        body: { _ in #"{"code":429,"error_code":"over_request_rate_limit","msg":"Request rate limit reached"}"# },
        status: 429, headers: { [("Retry-After", headerText($0))] }),
      Field(
        provider: .supabase, name: "429 message seconds", line: login, path: token,
        body: {
          let message = "For security purposes, you can only request this after \(headerText($0)) seconds."
          return #"{"code":429,"error_code":"over_email_send_rate_limit","msg":"# + JSON.string(message).compactText
            + "}"
        }, status: 429),
    ]
  }()

  static let firebaseFields: [Field] = {
    let signIn = Fixture.text("firebase/signin.json")
    let token = Fixture.text("firebase/token.json")
    let lookup = Fixture.text("firebase/lookup.json")
    let signInPath = "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword"
    let lookupPath = "/identitytoolkit.googleapis.com/v1/accounts:lookup"
    let tokenPath = "/securetoken.googleapis.com/v1/token"
    return [
      Field(provider: .firebase, name: "idToken exp", line: login, path: signInPath) {
        spliceClaim(signIn, ["idToken"], "exp", $0)
      },
      Field(provider: .firebase, name: "expiresIn (idToken without exp)", line: login, path: signInPath) {
        spliceClaim(splice(signIn, ["expiresIn"], $0), ["idToken"], "exp", nil)
      },
      Field(provider: .firebase, name: "idToken iat", line: login, path: signInPath) {
        spliceClaim(signIn, ["idToken"], "iat", $0)
      },
      Field(provider: .firebase, name: "refresh id_token exp", line: "refresh", path: tokenPath, signedIn: true) {
        spliceClaim(token, ["id_token"], "exp", $0)
      },
      Field(provider: .firebase, name: "refresh expires_in (no exp)", line: "refresh", path: tokenPath, signedIn: true)
      {
        spliceClaim(splice(token, ["expires_in"], $0), ["id_token"], "exp", nil)
      },
      Field(provider: .firebase, name: "lookup createdAt", line: "whoami", path: lookupPath, signedIn: true) {
        splice(lookup, ["users", "0", "createdAt"], $0)
      },
      Field(provider: .firebase, name: "lookup lastLoginAt", line: "whoami", path: lookupPath, signedIn: true) {
        splice(lookup, ["users", "0", "lastLoginAt"], $0)
      },
      Field(provider: .firebase, name: "lookup passwordUpdatedAt", line: "whoami", path: lookupPath, signedIn: true) {
        splice(lookup, ["users", "0", "passwordUpdatedAt"], $0)
      },
      Field(
        provider: .firebase, name: "error code", line: login, path: signInPath,
        body: { #"{"error":{"code":"# + $0 + #","message":"INVALID_LOGIN_CREDENTIALS","errors":[]}}"# }, status: 400),
      Field(
        provider: .firebase, name: "429 Retry-After", line: login, path: signInPath,
        body: { _ in #"{"error":{"code":429,"message":"TOO_MANY_ATTEMPTS_TRY_LATER","errors":[]}}"# },
        status: 429, headers: { [("Retry-After", headerText($0))] }),
    ]
  }()

  static let inputCount = literals.count * (supabaseFields.count + firebaseFields.count)

  @Test("968 extreme values in every decoded numeric field: no crash, a plausible session or a catalogue error")
  func everyDecodedNumericField() async throws {
    #expect(Self.literals.count == 44)
    #expect(Self.inputCount == 968)
    var answered = 0
    for provider in [ProviderKind.supabase, .firebase] {
      try await withStarted(Harness(provider, transport: .nio)) { harness in
        for field in provider == .supabase ? Self.supabaseFields : Self.firebaseFields {
          for literal in Self.literals {
            harness.server.reset()
            try harness.store.clear(profile: "default")
            if field.signedIn { try harness.signedIn() }
            let before = try harness.store.load(profile: "default").session
            let body = Array(field.body(literal).utf8)
            let headers = [("Content-Type", "application/json")] + field.headers(literal)
            let status = field.status
            harness.server.on("POST", field.path) { _ in
              ServerResponse(status: status, headers: headers.map { ($0.0, $0.1) }, body: body)
            }
            harness.server.on("GET", field.path) { _ in
              ServerResponse(status: status, headers: headers.map { ($0.0, $0.1) }, body: body)
            }
            let result = try await harness.run(field.line)
            let stored = try harness.store.load(profile: "default").session
            let context = "\(field) = \(literal)"
            if let error = result.error {
              #expect(ErrorCode.catalogue.contains(error.code), "\(context): \(error.code)")
              if error.code == .malformedResponse { #expect(stored == before, "\(context): nothing is saved") }
            } else if let session = result.session {
              #expect(UnixTime.isPlausible(session.expiresAt), "\(context): expires_at \(session.expiresAt)")
            }
            if let stored { #expect(UnixTime.isPlausible(stored.expiresAt), "\(context)") }
            // What a later command sees must not trap either (it did: the value was saved first).
            let status2 = try await harness.run("status")
            #expect(status2.error == nil, "\(context): status \(String(describing: status2.error))")
            answered += 1
          }
        }
      }
    }
    #expect(answered == Self.inputCount)
  }

  // MARK: - Splicing

  static let marker = "\u{1}FUZZ\u{1}"

  /// `text` with the value at `path` replaced by the JSON text `literal`, `removing` keys dropped.
  static func splice(_ text: String, _ path: [String], _ literal: String?, removing: [String] = []) -> String {
    guard var json = try? JSON.parse(text) else { return text }
    for key in removing { json = set(json, [key], nil) }
    json = set(json, path, literal == nil ? nil : .string(marker))
    return json.compactText.replacingOccurrences(of: JSON.string(marker).compactText, with: literal ?? "null")
  }

  /// `text` with claim `claim` of the JWT at `path` set to `literal` (nil: removed).
  static func spliceClaim(
    _ text: String, _ path: [String], _ claim: String, _ literal: String?, removing: [String] = []
  ) -> String {
    guard var json = try? JSON.parse(text), let token = get(json, path)?.string else { return text }
    let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3, let payload = base64URLDecode(parts[1]) else { return text }
    let claims = splice(payload, [claim], literal)
    json = set(json, path, .string(parts[0] + "." + base64URLEncode(claims) + "." + parts[2]))
    for key in removing { json = set(json, [key], nil) }
    return json.compactText
  }

  /// A literal as header or message text (strings unquoted).
  static func headerText(_ literal: String) -> String {
    (try? JSON.parse(literal))?.string ?? literal
  }

  static func get(_ json: JSON, _ path: [String]) -> JSON? {
    var current: JSON? = json
    for key in path { current = Int(key).flatMap { current?[$0] } ?? current?[key] }
    return current
  }

  static func set(_ json: JSON, _ path: [String], _ value: JSON?) -> JSON {
    guard let key = path.first else { return value ?? .null }
    switch json {
    case .object(var object):
      if path.count == 1 {
        object[key] = value
      } else {
        object[key] = set(object[key] ?? [:], Array(path.dropFirst()), value)
      }
      return .object(object)
    case .array(var items):
      guard let index = Int(key), items.indices.contains(index) else { return json }
      items[index] = set(items[index], Array(path.dropFirst()), value)
      return .array(items)
    default:
      return json
    }
  }

  static func base64URLDecode(_ text: String) -> String? {
    var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    return Data(base64Encoded: base64).map { String(decoding: $0, as: UTF8.self) }
  }

  static func base64URLEncode(_ text: String) -> String {
    Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
      of: "/", with: "_"
    )
    .replacingOccurrences(of: "=", with: "")
  }
}
