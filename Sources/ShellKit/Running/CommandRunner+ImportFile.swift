import AuthCore
import Essentials
import JSONKit

/// `user import`'s file, read whole and strict: a file of no known shape, a record with the wrong
/// fields or invalid UTF-8 is `invalid_file` (exit 65) naming the line; Firebase hashes without
/// their parameters are a usage error naming `--hash-config`; then each account checked against
/// the target for what it would lose.
extension CommandRunner {
  func readAccountFile(_ path: String, name: String, hashConfig: FirebaseHashConfig?, _ context: ShellContext) throws
    -> (AccountFileFormat, [PortableAccount])
  {
    let text: String
    do {
      let caps = ShellContext.InputCaps.accountFile
      if path == "-", let readStdin = context.readStdinText {
        text = try readStdin()
      } else {
        let bytes = try Descriptor.readFile(path, limit: caps.limit, lineLimit: caps.line)
        guard let valid = String(validating: bytes, as: UTF8.self) else {
          throw AuthError(
            .invalidFile,
            message:
              "\(name) is not UTF-8 text: line \(Self.firstInvalidUTF8Line(bytes)) has bytes no text has; nothing was sent."
          )
        }
        text = valid
      }
    } catch let error as AuthError {
      throw error
    } catch {
      throw AuthError(.usage, message: "Cannot read \(name): \(Self.reason(error)).")
    }
    let (format, accounts): (AccountFileFormat, [PortableAccount])
    do {
      (format, accounts) = try PortableAccountReader.read(text, hashConfig: hashConfig)
    } catch let error as PortableAccountError {
      throw AuthError(.invalidFile, message: "\(name) is not an account export: \(error.message); nothing was sent.")
    }
    let unhashed = accounts.filter { $0.passwordNote == PortableAccountReader.missingHashConfig }.count
    if unhashed > 0 {
      throw AuthError(
        .usage,
        message:
          "\(unhashed) account\(unhashed == 1 ? "" : "s") of \(name) carry Firebase scrypt hashes without their parameters; nothing was sent.",
        hint:
          "Give --hash-config FILE: the project's password hash parameters (Firebase console → Authentication → Users → ⋮ → "
          + "Password hash parameters), as {\"algorithm\":\"SCRYPT\",\"signerKey\":…,\"saltSeparator\":…,\"rounds\":8,\"memoryCost\":14}. "
          + "`authsh user export --provider firebase` writes hashes with their parameters.")
    }
    return (format, accounts)
  }

  /// The line (1 for the first) of the first byte that is not UTF-8.
  static func firstInvalidUTF8Line(_ bytes: [UInt8]) -> Int {
    var line = 1
    var start = 0
    for index in bytes.indices where bytes[index] == 0x0A {
      if String(validating: bytes[start..<index], as: UTF8.self) == nil { return line }
      line += 1
      start = index + 1
    }
    return line
  }

  /// Each account against the target: what it loses, and whether it is held back.
  func checkAccounts(_ accounts: [PortableAccount], _ invocation: Invocation, _ context: ShellContext, target: Target)
    -> [ImportCheck]
  {
    let consent = ImportConsent(
      withoutPasswords: invocation[.withoutPasswords], dropFactors: invocation[.dropFactors],
      confirmUnverified: invocation[.confirmUnverified])
    let now = context.clock.unixNow
    return accounts.map {
      ImportCheck($0, target: target.provider, consent: consent, now: now)
    }
  }
}
