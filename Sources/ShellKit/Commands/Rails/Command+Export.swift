import AuthCore
import Essentials
import JSONKit

/// `user export`: every account, a page at a time, written as it is read.
extension Command {
  /// `--hash-config FILE`: the admin v2 config's `signIn.hashConfig` shape (or the whole config).
  static func readHashConfig(_ path: String) throws -> FirebaseHashConfig {
    let text: String
    do {
      text = try ShellContext.readFile(
        path, limit: ShellContext.InputCaps.parameters.limit, lineLimit: ShellContext.InputCaps.parameters.line)
    } catch {
      throw AuthError(.usage, message: "Cannot read \(path): \(SystemError.reason(error)).")
    }
    guard let json = try? JSON.parse(text), let config = FirebaseHashConfig.from(projectConfig: json) else {
      throw AuthError(
        .usage,
        message:
          "\(path) is not a Firebase hash config: {\"algorithm\":\"SCRYPT\",\"signerKey\":\"…\",\"saltSeparator\":\"…\",\"rounds\":8,\"memoryCost\":14}."
      )
    }
    return config
  }
}
