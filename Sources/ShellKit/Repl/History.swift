import AuthCore
import Essentials

/// What happens to a typed line in the history (redis-cli and bash rules).
package enum HistoryDecision: Equatable, Sendable {
  /// Recalled with Up and written to the history file.
  case persist
  /// Recalled with Up in this session only: the line carries a secret.
  case memoryOnly
  /// Not kept at all: a line starting with a space (bash `ignorespace`), a blank line, or a
  /// line whose password was just refused.
  case skip
}

package enum HistoryPolicy {
  static var secretFlags: Set<String> { CommandTable.secretFlagNames }

  package static func decide(_ line: String, invocation: Invocation?) -> HistoryDecision {
    if line.hasPrefix(" ") || line.hasPrefix("\t") || line.trimmingWhitespace.isEmpty { return .skip }
    if let invocation { return invocation.carriesSecret ? .memoryOnly : .persist }
    guard let words = try? WordSplitter.split(line) else { return .memoryOnly }
    return mentionsSecret(words) || !namesCommand(words) ? .memoryOnly : .persist
  }

  /// Whether a line that did not parse starts with a command's words. One that does not may be a
  /// password typed at the prompt by mistake: it is recalled in this session but never written.
  static func namesCommand(_ words: [Word]) -> Bool {
    CommandTable.match(words.map(\.text)).map { $0.consumed > 0 } ?? false
  }

  /// Whether a line that did not parse still names a secret flag, gives a value where a command
  /// takes a secret argument (`reset confirm LINK`), or cannot be split at all: such lines never
  /// reach the file.
  package static func mentionsSecret(_ line: String) -> Bool {
    guard let words = try? WordSplitter.split(line) else { return true }
    return mentionsSecret(words)
  }

  static func mentionsSecret(_ words: [Word]) -> Bool {
    let namesSecretFlag = words.contains { word in
      !word.quoted
        && secretFlags.contains(word.text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word.text)
    }
    return namesSecretFlag || !secretArgumentPositions(words).isEmpty || words.contains { isRecoveryLink($0.text) }
      || mistypedFlagMayCarrySecret(words)
  }

  /// Every flag name of the table, any command, any surface.
  static let knownFlags: Set<String> = Set((CommandTable.all.flatMap(\.flags) + CommandTable.globalFlags).map(\.name))

  /// Whether a flag the table does not know could have been meant for a secret: `-p hunter2`,
  /// `--passwrd=…`, `--pass x`. Its value (attached, or the next word) may be a password, so the
  /// line is treated as carrying one.
  static func mistypedFlagMayCarrySecret(_ words: [Word]) -> Bool {
    for (index, word) in words.enumerated() where !word.quoted && word.text.hasPrefix("-") && word.text.count > 1 {
      let name = flagName(word.text)
      guard name != "--", name != "-h", !knownFlags.contains(name) else { continue }
      let lowered = name.lowercased()
      let secretish = ["pass", "pw", "secret", "token", "key", "code"].contains { lowered.contains($0) }
      // `-p…`: a short flag with the value glued on (`-phunter2`) or after it.
      let short = !name.hasPrefix("--")
      let hasValue = word.text.contains("=") || index + 1 < words.count || (short && name.count > 2)
      if secretish || short || hasValue { return true }
    }
    return false
  }

  /// A link that carries a one-time credential (a reset e-mail's link pasted on its own).
  static func isRecoveryLink(_ text: String) -> Bool {
    guard text.contains("://"), let query = text.split(separator: "?", maxSplits: 1).dropFirst().first else {
      return false
    }
    let names = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? "" }
    return names.contains { ["token", "token_hash", "code", "oobCode"].contains($0) }
  }

  /// The line with every secret value replaced by `***` (for `history` and echoes).
  package static func masked(_ line: String) -> String {
    guard let words = try? WordSplitter.split(line) else { return line.trimmingWhitespace.isEmpty ? line : "***" }
    let secretArguments = secretArgumentPositions(words)
    let secretWords =
      words.contains { secretFlags.contains(flagName($0.text)) || isRecoveryLink($0.text) }
      || mistypedFlagMayCarrySecret(words)
    guard secretArguments.isEmpty, !secretWords else {
      return maskedWords(words, secretArguments: secretArguments)
    }
    return line.trimmingWhitespace
  }

  private static func maskedWords(_ words: [Word], secretArguments: Set<Int>) -> String {
    var parts: [String] = []
    var maskNext = false
    for (index, word) in words.enumerated() {
      if maskNext || secretArguments.contains(index) || isRecoveryLink(word.text) {
        parts.append(Redactor.mask)
        maskNext = false
        continue
      }
      let name = flagName(word.text)
      let unknown =
        word.text.hasPrefix("-") && word.text.count > 1 && name != "--" && name != "-h" && !knownFlags.contains(name)
      if !word.quoted, unknown, !name.hasPrefix("--"), name.count > 2 {
        parts.append(Redactor.mask)  // `-phunter2`
        continue
      }
      if !word.quoted, secretFlags.contains(name) || unknown {
        if word.text.contains("=") {
          parts.append(name + "=" + Redactor.mask)
        } else {
          parts.append(name)
          maskNext = true
        }
        continue
      }
      parts.append(WordSplitter.quote(word.text))
    }
    return parts.joined(separator: " ")
  }

  /// The error with the word it quotes masked when that word may be a secret: `unexpected
  /// argument 'hunter2' for 'login'` (a password typed where no argument goes).
  package static func masked(_ error: UsageError, words: [Word]) -> UsageError {
    guard let index = error.wordIndex, index < words.count, secretArgumentPositions(words).contains(index) else {
      return error
    }
    var masked = error
    masked.message = error.message.replacingAll("'\(words[index].text)'", with: "'\(Redactor.mask)'")
    return masked
  }

  /// The invocation without its secret values (after `invalid_credentials`, nothing of the
  /// password is kept: `retry` asks again).
  package static func withoutSecrets(_ invocation: Invocation) -> Invocation {
    var copy = invocation
    for name in secretFlags { copy.flags[name] = nil }
    var words: [Word] = []
    var skipNext = false
    for word in invocation.words {
      if skipNext {
        skipNext = false
        continue
      }
      if !word.quoted, secretFlags.contains(flagName(word.text)) {
        skipNext = !word.text.contains("=")
        continue
      }
      words.append(word)
    }
    copy.words = words
    return copy
  }

  /// Indices of the words that fill a secret argument of the command the line starts with
  /// (`reset confirm CODE-OR-LINK`). Lenient, as it also reads lines that did not parse: unknown
  /// flags count as switches, and surplus words of such a command count as secret too, as do
  /// those of a command that takes a secret by flag (`login ada@example.com hunter2`: the
  /// password typed where the flag or the prompt should have had it).
  static func secretArgumentPositions(_ words: [Word]) -> Set<Int> {
    guard let (spec, consumed) = CommandTable.match(words.map(\.text)),
      spec.arguments.contains(where: \.isSecret) || spec.flags.contains(where: \.isSecret)
    else {
      return []
    }
    let takingValues = Set((spec.flags + CommandTable.globalFlags).filter(\.takesValue).map(\.name))
    var positions: Set<Int> = []
    var argument = 0
    var index = consumed
    var flagsEnded = false
    while index < words.count {
      let word = words[index]
      defer { index += 1 }
      if !flagsEnded, !word.quoted, word.text.hasPrefix("-"), word.text.count > 1 {
        if word.text == "--" { flagsEnded = true } else if takingValues.contains(word.text) { index += 1 }
        continue
      }
      let spec = argument < spec.arguments.count ? spec.arguments[argument] : nil
      if spec?.isSecret ?? true { positions.insert(index) }
      if !(spec?.variadic ?? false) { argument += 1 }
    }
    return positions
  }

  static func flagName(_ text: String) -> String {
    text.firstIndex(of: "=").map { String(text[..<$0]) } ?? text
  }
}

/// The history file: plain lines, mode 0600 in a 0700 directory; only lines the policy allows.
/// Never followed through a symbolic link: the file is opened `O_NOFOLLOW` (a link is neither
/// read nor written), and the rewrite goes to a fresh temp file created `O_EXCL` beside it, then
/// renamed over it (which replaces a link, never its target).
package struct HistoryFile: Sendable {
  package let path: String
  package var limit: Int
  /// `$XDG_STATE_HOME/authsh` when the file is the standard one: checked as ssh checks `~/.ssh`
  /// before the file is used (nil for `AUTHSH_HISTFILE`).
  package let stateDirectory: String?

  package init(path: String, limit: Int = 1000, stateDirectory: String? = nil) {
    self.path = path
    self.limit = limit
    self.stateDirectory = stateDirectory
  }

  /// `AUTHSH_HISTFILE` (empty or `/dev/null` disables), else `Paths.historyFile`.
  package static func resolve(environment: [String: String], paths: Paths) -> HistoryFile? {
    if let custom = environment["AUTHSH_HISTFILE"] {
      if custom.isEmpty || custom == "/dev/null" { return nil }
      return HistoryFile(path: custom)
    }
    return HistoryFile(path: paths.historyFile, stateDirectory: paths.stateDirectory)
  }

  /// Refuses a state directory others could use to bend the file (`config_error` with the fix);
  /// creates it 0700 when missing.
  package func check() throws {
    if let stateDirectory { _ = try StateDirectory.check(stateDirectory, create: true) }
  }

  /// The last `limit` lines (none when the file is missing, unreadable or a symbolic link).
  package func load() -> [String] {
    guard let fd = try? SafePath.open(path, flags: O_RDONLY | O_NONBLOCK, followLast: false) else { return [] }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    var info = stat()
    if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
      while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        bytes += chunk[0..<n]
      }
    }
    close(fd)
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(
      String.init)
    if lines.count > limit * 2 { rewrite(Array(lines.suffix(limit))) }
    return Array(lines.suffix(limit))
  }

  /// Appends one line, creating the file 0600 (and its directory 0700) when needed. A symbolic
  /// link or something else than a regular file there is left alone.
  package func append(_ line: String) {
    guard !line.utf8.contains(UInt8(ascii: "\n")), ensureDirectory() else { return }
    guard let fd = try? SafePath.open(path, flags: O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK, followLast: false)
    else { return }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { return }
    if info.st_mode & 0o077 != 0 { _ = fchmod(fd, 0o600) }
    _ = Descriptor.writeAll(fd, Array((line + "\n").utf8))
  }

  private func rewrite(_ lines: [String]) {
    guard let place = try? SafePath.parent(of: path) else { return }
    defer { place.close() }
    let temporary = place.name + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let fd = openat(place.directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return }
    let written = Descriptor.writeAll(fd, Array(lines.map { $0 + "\n" }.joined().utf8)).failure == nil
    close(fd)
    guard written, renameat(place.directory, temporary, place.directory, place.name) == 0 else {
      unlinkat(place.directory, temporary, 0)
      return
    }
  }

  /// Whether the directory is there to write in (the state directory: and passes its checks).
  private func ensureDirectory() -> Bool {
    if stateDirectory != nil { return (try? check()) != nil }
    let directory = parentDirectory(of: path)
    guard !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) else { return true }
    try? FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    return true
  }
}
