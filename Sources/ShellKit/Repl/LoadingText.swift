import AuthCore
import Essentials

/// The spinner's words: what is being done and where ("Signing in to 127.0.0.1:54321…"), so a
/// slow answer says which server is slow.
package enum LoadingText {
  /// The command's loading words with the host; the plain words when the target is unknown;
  /// nil for commands that send nothing.
  package static func text(for spec: CommandSpec, target: Target?) -> String? {
    guard let loading = spec.loading else { return nil }
    guard let target else { return loading.plain }
    let host = TerminalText.escape(host(of: target))
    if let phrase = loading.withHost { return phrase.replacingAll("%@", with: host) }
    let words = loading.plain.hasSuffix("…") ? String(loading.plain.dropLast()) : loading.plain
    return "\(words) (\(host))…"
  }

  /// `127.0.0.1:54321`, `abcd.supabase.co`, `identitytoolkit.googleapis.com`.
  package static func host(of target: Target) -> String {
    if target.provider == .firebase, let emulator = target.firebaseEmulatorHost, !emulator.isEmpty { return emulator }
    guard let components = URLComponents(string: target.url), let host = components.host, !host.isEmpty else {
      return target.url
    }
    let bracketed = host.contains(":") ? "[\(host)]" : host
    return bracketed + (components.port.map { ":\($0)" } ?? "")
  }
}
