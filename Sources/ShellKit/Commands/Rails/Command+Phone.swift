import AuthCore
import Essentials

/// Phone numbers as `login --phone`, `inbox +NUMBER` and `user update --phone` take them.
extension Command {
  /// A phone number in E.164 (`+15551234567`; spaces, dashes and parentheses are dropped), or a
  /// usage error naming the flag.
  static func phoneNumber(_ text: String, flag: String) throws -> String {
    guard let number = AccountUpdate.e164(text.trimmingWhitespace) else {
      throw AuthError(.usage, message: "\(flag) takes a number in E.164 form, such as +15551234567, not '\(text)'.")
    }
    return number
  }
}
