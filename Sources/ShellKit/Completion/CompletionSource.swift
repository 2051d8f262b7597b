import AuthCore
import Essentials
import JSONKit

/// Where dynamic completion values come from: profiles, e-mails seen, files. A seam, so tests
/// and the shell-completion callback see the same engine with different worlds.
package struct CompletionSource: Sendable {
  /// Profile names of `config.toml`.
  package var profiles: @Sendable () -> [String]
  /// E-mail addresses used in this session (and the profile's remembered one).
  package var emails: @Sendable () -> [String]
  /// Entries of a directory: (name, isDirectory). nil when it cannot be read.
  package var listDirectory: @Sendable (_ path: String) -> [(name: String, isDirectory: Bool)]?
  /// What `{{…}}` can name here: the builtins, `env.NAME`, and the previous result's fields.
  package var templateNames: @Sendable () -> [String]

  package init(
    profiles: @escaping @Sendable () -> [String] = { [] }, emails: @escaping @Sendable () -> [String] = { [] },
    listDirectory: @escaping @Sendable (String) -> [(name: String, isDirectory: Bool)]? = CompletionSource.fileSystem,
    templateNames: @escaping @Sendable () -> [String] = { CompletionSource.builtinTemplateNames }
  ) {
    self.profiles = profiles
    self.emails = emails
    self.listDirectory = listDirectory
    self.templateNames = templateNames
  }

  /// The names every `{{…}}` knows, whatever ran before.
  package static let builtinTemplateNames = TemplateBuiltin.names

  /// The dotted paths of a result model's values (`user.email`, `inbox.link`), arrays left out.
  package static func paths(of model: JSON, prefix: String = "") -> [String] {
    guard let object = model.object else { return prefix.isEmpty ? [] : [prefix] }
    return object.keys.flatMap { key -> [String] in
      let path = prefix.isEmpty ? key : prefix + "." + key
      guard let value = object[key] else { return [] }
      if value.object != nil { return paths(of: value, prefix: path) }
      return value.array == nil && value != .null ? [path] : []
    }
  }

  /// Values from a shell context: its config file, the e-mails it saw and the remembered
  /// e-mail of the active profile. Never touches the network; never writes.
  package init(context: ShellContext) {
    self.init(
      profiles: { context.currentProfileNames() },
      emails: {
        var emails = context.knownEmails
        if let target = try? context.target(),
          let remembered = try? context.sessions(for: target).state().rememberedEmail,
          !emails.contains(remembered)
        {
          emails.append(remembered)
        }
        if let target = try? context.target(),
          let user = try? context.sessions(for: target).storedSession()?.user.email,
          !emails.contains(user)
        {
          emails.append(user)
        }
        return emails
      },
      templateNames: {
        let environment = context.environment.keys.sorted().map { "env." + $0 }
        let previous = context.previousResult.map { CompletionSource.paths(of: $0) } ?? []
        return previous + CompletionSource.builtinTemplateNames + environment
      })
  }

  /// No dynamic values at all (tests).
  package static let empty = CompletionSource(listDirectory: { _ in nil })

  /// Lists a directory of the real file system, hidden entries left out.
  package static let fileSystem: @Sendable (String) -> [(name: String, isDirectory: Bool)]? = { path in
    let manager = FileManager.default
    guard let names = try? manager.contentsOfDirectory(atPath: path.isEmpty ? "." : path) else { return nil }
    return names.sorted().compactMap { name in
      if name.hasPrefix(".") { return nil }
      let full = (path.isEmpty ? "" : (path.hasSuffix("/") ? path : path + "/")) + name
      guard let directory = isDirectory(full) else { return nil }
      return (name, directory)
    }
  }
}
