import AuthCore
import Essentials
import JSONKit

/// `user import FILE|-`: accounts from an export created on the target backend with their password
/// hashes (`AccountImporter`). A change: a readonly profile refuses it; one confirmation for the
/// whole file on a terminal ("type 500 to confirm"), `--yes` otherwise; an audit line per account
/// (the log answers "what happened to ada@…" whichever way she was changed). Never prints a hash.
extension Command {
  func readHashConfig(_ path: String) throws -> FirebaseHashConfig {
    let text: String
    do {
      text = try ShellContext.readFile(
        path, limit: ShellContext.InputCaps.parameters.limit, lineLimit: ShellContext.InputCaps.parameters.line)
    } catch {
      throw AuthError(.usage, message: "Cannot read the hash config \(path): \(SystemError.reason(error)).")
    }
    do {
      return try FirebaseHashConfig(json: try JSON.parse(text))
    } catch let error as PortableAccountError {
      throw AuthError(.usage, message: "The hash config \(path) cannot be used: \(error.message).")
    } catch {
      throw AuthError(.usage, message: "The hash config \(path) is not JSON.")
    }
  }
}
