import AuthCore
import Foundation

/// Where dynamic completion values come from: profiles, e-mails seen, files. A seam, so tests
/// and the shell-completion callback see the same engine with different worlds.
public struct CompletionSource: Sendable {
  /// Profile names of `config.toml`.
  public var profiles: @Sendable () -> [String]
  /// E-mail addresses used in this session (and the profile's remembered one).
  public var emails: @Sendable () -> [String]
  /// Entries of a directory: (name, isDirectory). nil when it cannot be read.
  public var listDirectory: @Sendable (_ path: String) -> [(name: String, isDirectory: Bool)]?

  public init(
    profiles: @escaping @Sendable () -> [String] = { [] }, emails: @escaping @Sendable () -> [String] = { [] },
    listDirectory: @escaping @Sendable (String) -> [(name: String, isDirectory: Bool)]? = CompletionSource.fileSystem
  ) {
    self.profiles = profiles
    self.emails = emails
    self.listDirectory = listDirectory
  }

  /// Values from a shell context: its config file, the e-mails it saw and the remembered
  /// e-mail of the active profile. Never touches the network; never writes.
  public init(context: ShellContext) {
    let resolver = context.resolver
    self.init(
      profiles: { resolver.profileNames() },
      emails: {
        var emails = context.knownEmails
        if let target = try? context.target(),
          let remembered = try? context.sessions(for: target).state().rememberedEmail,
          !emails.contains(remembered)
        {
          emails.append(remembered)
        }
        if let target = try? context.target(), let user = try? context.sessions(for: target).storedSession()?.user.email,
          !emails.contains(user)
        {
          emails.append(user)
        }
        return emails
      })
  }

  /// No dynamic values at all (tests).
  public static let empty = CompletionSource(listDirectory: { _ in nil })

  /// Lists a directory of the real file system, hidden entries left out.
  public static let fileSystem: @Sendable (String) -> [(name: String, isDirectory: Bool)]? = { path in
    let manager = FileManager.default
    guard let names = try? manager.contentsOfDirectory(atPath: path.isEmpty ? "." : path) else { return nil }
    return names.sorted().compactMap { name in
      if name.hasPrefix(".") { return nil }
      var isDirectory: ObjCBool = false
      let full = (path.isEmpty ? "" : (path.hasSuffix("/") ? path : path + "/")) + name
      guard manager.fileExists(atPath: full, isDirectory: &isDirectory) else { return nil }
      return (name, isDirectory.boolValue)
    }
  }
}
