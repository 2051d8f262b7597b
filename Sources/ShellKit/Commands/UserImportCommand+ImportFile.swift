import AuthCore
import Essentials
import JSONKit

extension UserImportCommand {
  static func missingHashConfig(_ unhashed: Int, name: String) -> AuthError {
    AuthError(
      .usage,
      message:
        "\(unhashed) account\(unhashed == 1 ? "" : "s") of \(name) carry Firebase scrypt hashes without their parameters; nothing was sent.",
      hint:
        "Give --hash-config FILE: the project's password hash parameters (Firebase console → Authentication → Users → ⋮ → "
        + "Password hash parameters), as {\"algorithm\":\"SCRYPT\",\"signerKey\":…,\"saltSeparator\":…,\"rounds\":8,\"memoryCost\":14}. "
        + "`authsh user export --provider firebase` writes hashes with their parameters.")
  }
}
