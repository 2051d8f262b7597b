/// Client-side validation: instant, no request, every failing field reported at once.
package enum Validator {
  package struct Input: Sendable {
    package var email: String?
    package var password: String?
    package var confirm: String?
    package var name: String?
    /// Whether to apply the length rules (sign-up, reset confirm) or only "required" (sign-in).
    package var checkPasswordLength: Bool
    package var requireName: Bool
    package var requireEmail: Bool
    package var requirePassword: Bool

    package init(
      email: String? = nil, password: String? = nil, confirm: String? = nil, name: String? = nil,
      checkPasswordLength: Bool = true, requireName: Bool = false, requireEmail: Bool = true,
      requirePassword: Bool = true
    ) {
      self.email = email
      self.password = password
      self.confirm = confirm
      self.name = name
      self.checkPasswordLength = checkPasswordLength
      self.requireName = requireName
      self.requireEmail = requireEmail
      self.requirePassword = requirePassword
    }
  }

  /// nil when valid; otherwise one `validation_failed` error carrying every field problem.
  package static func validate(_ input: Input) -> AuthError? {
    var problems: [FieldError] = []
    if input.requireEmail {
      let email = (input.email ?? "").trimmingWhitespace
      if email.isEmpty {
        problems.append(FieldError(.email, code: "email_required", message: "Email is required"))
      } else if !isValidEmail(email) {
        problems.append(FieldError(.email, code: "invalid_email", message: "Invalid email address"))
      }
    }
    if input.requirePassword {
      let password = input.password ?? ""
      if password.isEmpty {
        problems.append(FieldError(.password, code: "password_required", message: "Password is required"))
      } else if input.checkPasswordLength && password.count < 8 {
        problems.append(
          FieldError(.password, code: "password_too_short", message: "Password must be at least 8 characters"))
      } else if password.count > 255 {
        problems.append(
          FieldError(.password, code: "password_too_long", message: "Password must be at most 255 characters"))
      }
    }
    if input.requireName, (input.name ?? "").trimmingWhitespace.isEmpty {
      problems.append(FieldError(.name, code: "name_required", message: "Name is required"))
    }
    if let confirm = input.confirm, confirm != (input.password ?? "") {
      problems.append(FieldError(.confirm, code: "passwords_mismatch", message: "Passwords do not match"))
    }
    guard !problems.isEmpty else { return nil }
    let summary = problems.map(\.message).joined(separator: "; ")
    return AuthError(.validationFailed, message: summary, fields: problems)
  }

  /// `^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~\-]+@[a-zA-Z0-9.\-]+\.[a-zA-Z]{2,}$`, at most 255 characters
  /// (after trimming). The local part takes every character RFC 5322 allows unquoted, as GoTrue
  /// does (Firebase takes more): `o'brien@example.com` is an address people have, and both
  /// backends accept it; refusing it here left such accounts impossible to sign in to or reset.
  static let localSpecials = Set(".!#$%&'*+/=?^_`{|}~-".unicodeScalars)

  package static func isValidEmail(_ text: String) -> Bool {
    let email = text.trimmingWhitespace
    guard email.count <= 255 else { return false }
    let scalars = Array(email.unicodeScalars)
    guard let at = scalars.firstIndex(of: "@"), at > 0 else { return false }
    let local = scalars[..<at]
    let domain = scalars[(at + 1)...]
    guard local.allSatisfy({ isASCIIAlnum($0) || localSpecials.contains($0) }) else { return false }
    guard domain.allSatisfy({ isASCIIAlnum($0) || $0 == "." || $0 == "-" }) else { return false }
    // The greedy `[a-zA-Z0-9.\-]+\.[a-zA-Z]{2,}` part: some dot splits it into a non-empty head and a 2+ letter tail.
    let domainArray = Array(domain)
    guard let lastDot = domainArray.lastIndex(of: "."), lastDot > 0 else { return false }
    let tld = domainArray[(lastDot + 1)...]
    return tld.count >= 2 && tld.allSatisfy(isASCIILetter)
  }

  /// Whether `text` can name an account by its address where an admin command takes one (the
  /// EMAIL argument of `user confirm`, `user disable`, …, and each line of their `--from FILE`):
  /// text around an `@` with something on each side, no spaces or control characters, at most
  /// 255 characters. Unlike `isValidEmail` (what a sign-up form takes), letters of any script are
  /// fine — `jürgen@bücher.example`, in any case, composed or not — since the backend, not this
  /// check, decides which account the address names.
  package static func isAccountAddress(_ text: String) -> Bool {
    let address = text.trimmingWhitespace
    guard address.count <= 255, let at = address.lastIndex(of: "@") else { return false }
    guard at > address.startIndex, address.index(after: at) < address.endIndex else { return false }
    return !address.unicodeScalars.contains {
      $0.properties.isWhitespace || $0.properties.generalCategory == .control
        || $0.properties.generalCategory == .format || $0.properties.generalCategory == .lineSeparator
        || $0.properties.generalCategory == .paragraphSeparator
    }
  }

  private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
  }

  private static func isASCIIAlnum(_ scalar: Unicode.Scalar) -> Bool {
    isASCIILetter(scalar) || ("0"..."9").contains(scalar)
  }
}

extension String {
  /// Without leading and trailing spaces, tabs and newlines.
  package var trimmingWhitespace: String {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}
