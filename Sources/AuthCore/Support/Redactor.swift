import Foundation

/// Replaces every known secret (passwords, tokens, keys, script `secret`s) with `***` in any text
/// before it reaches a terminal, a log, a report or a file. Thread-safe; secrets only accumulate.
public final class Redactor: @unchecked Sendable {
  public static let mask = "***"
  fileprivate let lock = NSLock()
  fileprivate var secrets: [String] = []

  public init() {}

  /// Registers a secret and the forms it takes on the wire (percent- and JSON-escaped).
  /// Very short values (under 4 characters) are not registered: masking them would shred
  /// ordinary text, and they are never printed on purpose.
  public func register(_ secret: String?) {
    guard let secret, secret.count >= 4 else { return }
    var forms = [secret]
    if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
      forms.append(encoded)
    }
    let jsonEscaped = secret.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "/", with: "\\/")
    if jsonEscaped != secret { forms.append(jsonEscaped) }
    lock.lock()
    defer { lock.unlock() }
    for form in forms where !secrets.contains(form) { secrets.append(form) }
    // Longest first, so a secret that contains another is masked whole.
    secrets.sort { $0.count > $1.count }
  }

  public func redact(_ text: String) -> String {
    lock.lock()
    let current = secrets
    lock.unlock()
    var result = text
    for secret in current where result.contains(secret) {
      result = result.replacingOccurrences(of: secret, with: Redactor.mask)
    }
    return result
  }

  public var isEmpty: Bool {
    lock.lock()
    defer { lock.unlock() }
    return secrets.isEmpty
  }
}

extension Redactor {
  /// A copy that no longer masks `values` (`--show-tokens` prints tokens, still masks passwords).
  public func revealing(_ values: [String]) -> Redactor {
    let copy = Redactor()
    lock.lock()
    let current = secrets
    lock.unlock()
    let hidden = Set(values)
    copy.lock.lock()
    copy.secrets = current.filter { secret in !hidden.contains { $0.contains(secret) || secret.contains($0) } }
    copy.lock.unlock()
    return copy
  }
}
