import Essentials
import HTTPServerKit
import JSONKit

/// Out-of-band codes: made for `sendOobCode` and for an
/// e-mail change by `accounts:update`, mailed to the outbox with their link.
extension FirebaseContext {
  /// Stores a code with its action link and, unless the link is returned to an admin, "sends" the
  /// mail: a record in the shared outbox (the official emulator logs the link instead).
  @discardableResult
  func createOob(
    _ project: FirebaseProject, request: ServerRequest, email: String, newEmail: String?,
    requestType: String, continueUrl: String? = nil, mail: Bool = true
  ) throws -> FirebaseOob {
    if mail { try takeMailQuota(requestType) }
    let origin = emulatorOrigin(request)
    let oob = try project.createOob(
      email: email, newEmail: newEmail, requestType: requestType,
      createdAt: FirebaseTime.milliseconds(now)
    ) { code in
      var items = [
        ("mode", FirebaseOob.mode(for: requestType)), ("lang", "en"), ("oobCode", code),
        ("apiKey", "fake-api-key"),
      ]
      if let continueUrl { items.append(("continueUrl", continueUrl)) }
      if let tenantId = project.tenantId { items.append(("tenantId", tenantId)) }
      return origin + "/emulator/action?" + items.map { $0.0 + "=" + Self.formEncode($0.1) }.joined(separator: "&")
    }
    if mail {
      // A verify-and-change mail goes to the new address.
      let recipient = requestType == "VERIFY_AND_CHANGE_EMAIL" ? (newEmail ?? email) : email
      outbox.record(
        OutboxMessage(
          side: .firebase, kind: requestType, email: recipient, code: oob.oobCode,
          link: oob.oobLink, time: now))
    }
    return oob
  }

  /// `URLSearchParams` encoding (spaces as `+`).
  private static func formEncode(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "*"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      case UInt8(ascii: " "): out += "+"
      default:
        let hex = String(byte, radix: 16, uppercase: true)
        out += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return out
  }
}
