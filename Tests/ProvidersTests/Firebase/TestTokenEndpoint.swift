import AuthCore
import AuthTestSupport
import CryptoExtras
import Essentials
import Foundation
import HTTPServerKit
import JSONKit

/// A Google-like OAuth token endpoint on loopback that checks each JWT-bearer assertion with the
/// public key of a service account generated here, and counts exchanges.
final class TestTokenEndpoint: TestService {
  static let email = "authsh-admin@demo-prod.iam.gserviceaccount.com"
  static let scope = "https://www.googleapis.com/auth/identitytoolkit https://www.googleapis.com/auth/cloud-platform"
  let server = FixtureServer()
  let key: _RSA.Signing.PrivateKey
  let keyId = "5f2c0e7a9b1d4c3e8f6a7b2c1d0e9f8a7b6c5d4e"
  private struct State {
    var exchanges = 0
    var problems: [String] = []
    var assertions: [String] = []
    var answer = (200, #"{"access_token":"ya29.c.test-access-token-0001","expires_in":3599,"token_type":"Bearer"}"#)
    var answerHeaders: [(name: String, value: String)] = []
    var claims: [JSON] = []
  }
  private let state = Guarded(State())
  var problems: [String] { state[\.problems] }
  var assertions: [String] { state[\.assertions] }
  /// The answer for a valid assertion (status, body); default: a token valid for an hour.
  var answer: (Int, String) {
    get { state[\.answer] }
    set { state[\.answer] = newValue }
  }
  /// Extra headers of every answer (`Date`, as Google sends it).
  var answerHeaders: [(name: String, value: String)] {
    get { state[\.answerHeaders] }
    set { state[\.answerHeaders] = newValue }
  }
  /// Claims of the assertions received, decoded.
  var claims: [JSON] { state[\.claims] }

  init() async throws {
    key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
    try await server.start()
    server.on("POST", "/token") { [weak self] request in
      guard let self else { return .text(500, "gone") }
      return self.handle(request)
    }
  }

  var tokenURI: String { server.baseURL + "/token" }
  var exchangeCount: Int { state[\.exchanges] }

  func stop() async { await server.stop() }

  var account: ServiceAccount {
    ServiceAccount(
      projectId: "demo-prod", clientEmail: Self.email, privateKeyId: keyId, privateKeyPEM: key.pkcs8PEMRepresentation,
      tokenURI: tokenURI, path: "/keys/demo-prod.json")
  }

  private func handle(_ request: ServerRequest) -> ServerResponse {
    let form = Dictionary(FormCoding.decode(String(decoding: request.body, as: UTF8.self)).map { ($0.name, $0.value) })
    { a, _ in a }
    var problems: [String] = []
    if request.header("Content-Type") != "application/x-www-form-urlencoded" { problems.append("content type") }
    if form["grant_type"] != "urn:ietf:params:oauth:grant-type:jwt-bearer" { problems.append("grant_type") }
    let assertion = form["assertion"] ?? ""
    problems += check(assertion)
    let decoded = assertion.split(separator: ".").dropFirst().first.flatMap { Self.decode(String($0)) }
      .flatMap { try? JSON.parse(bytes: $0) }
    let (answer, answerHeaders) = state.update { state in
      state.exchanges += 1
      state.assertions.append(assertion)
      if let decoded { state.claims.append(decoded) }
      state.problems += problems
      return (state.answer, state.answerHeaders)
    }
    guard problems.isEmpty else {
      return ServerResponse(
        status: 400, headers: [("Content-Type", "application/json")],
        body: Array(#"{"error":"invalid_grant","error_description":"Invalid JWT Signature."}"#.utf8))
    }
    return ServerResponse(
      status: answer.0, headers: [("Content-Type", "application/json; charset=utf-8")] + answerHeaders,
      body: Array(answer.1.utf8))
  }

  /// What is wrong with an assertion (empty when it is right).
  func check(_ assertion: String) -> [String] {
    let parts = assertion.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3, let headerBytes = Self.decode(parts[0]), let claimBytes = Self.decode(parts[1]),
      let signature = Self.decode(parts[2]), let header = try? JSON.parse(bytes: headerBytes),
      let claims = try? JSON.parse(bytes: claimBytes)
    else { return ["not a JWT"] }
    var problems: [String] = []
    let valid = key.publicKey.isValidSignature(
      _RSA.Signing.RSASignature(rawRepresentation: signature), for: Array((parts[0] + "." + parts[1]).utf8),
      padding: .insecurePKCS1v1_5)
    if !valid { problems.append("signature") }
    if header["alg"]?.string != "RS256" || header["typ"]?.string != "JWT" { problems.append("header") }
    if header["kid"]?.string != keyId { problems.append("kid") }
    if claims["iss"]?.string != Self.email { problems.append("iss") }
    if claims["aud"]?.string != tokenURI { problems.append("aud") }
    if claims["scope"]?.string != Self.scope { problems.append("scope") }
    guard let iat = claims["iat"]?.int, let exp = claims["exp"]?.int, exp > iat, exp - iat <= 3600 else {
      return problems + ["iat/exp"]
    }
    return problems
  }

  static func decode(_ part: String) -> [UInt8]? { Base64.decode(part) }
}
