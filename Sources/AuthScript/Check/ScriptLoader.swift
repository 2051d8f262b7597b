import Essentials

/// A file with its includes inlined, ready to check and run.
package struct Program: Sendable {
  package var main: Script
  /// Statements in run order; an `include` line is followed by the included file's statements.
  package var statements: [Statement]
  /// Every file that was read (the main one first, then each included file once).
  package var sources: [SourceFile]

  package init(main: Script, statements: [Statement], sources: [SourceFile]? = nil) {
    self.main = main
    self.statements = statements
    self.sources = sources ?? [main.file]
  }

  /// Literal secrets written in any of `sources` (see `SecretScan`).
  package var literalSecrets: [String] { SecretScan.values(in: sources) }
}

/// Parses a file and, recursively, the files it includes (paths relative to the including file).
/// Cycles, unreadable files and runaway expansion are diagnostics at the `include` line.
package struct ScriptLoader: Sendable {
  package typealias ReadFile = @Sendable (String) throws -> String

  package var readFile: ReadFile
  /// Nesting deeper than this is reported (it is almost surely a mistake).
  package var maxDepth = 32
  /// Guards against include diamonds that multiply into millions of statements.
  package var maxStatements = 100_000

  package init(readFile: @escaping ReadFile = ScriptLoader.readFromDisk) {
    self.readFile = readFile
  }

  package static let readFromDisk: ReadFile = { path in try ScriptFileReader.read(path) }

  package func load(_ file: SourceFile) -> (program: Program, diagnostics: [Diagnostic]) {
    let (script, diagnostics) = Parser.parse(file)
    var state = State(diagnostics: diagnostics)
    let root = file.path.map(Self.normalize) ?? file.name
    var statements: [Statement] = []
    expand(script, stack: [root], into: &statements, state: &state)
    let included = state.cache.keys.sorted().compactMap { key -> SourceFile? in
      if case .success(let (script, _)) = state.cache[key] { return script.file }
      return nil
    }
    return (Program(main: script, statements: statements, sources: [file] + included), state.diagnostics)
  }

  private struct State {
    var diagnostics: [Diagnostic]
    var cache: [String: Result<(Script, [Diagnostic]), Diagnostic.Partial>] = [:]
    var reported: Set<String> = []
    var total = 0
  }

  private func expand(_ script: Script, stack: [String], into statements: inout [Statement], state: inout State) {
    for statement in script.statements {
      state.total += 1
      guard state.total <= maxStatements else {
        state.diagnostics.append(
          Diagnostic(
            "too many statements after includes (more than \(maxStatements))", file: statement.file,
            range: statement.range))
        return
      }
      statements.append(statement)
      guard case .include(let written, let resolved, let range) = statement.kind else { continue }
      if let start = stack.firstIndex(of: resolved) {
        let chain = (stack[start...] + [resolved]).map(PathText.lastComponent).joined(separator: " → ")
        state.diagnostics.append(Diagnostic("include cycle", file: statement.file, range: range, note: chain))
        continue
      }
      guard stack.count < maxDepth else {
        state.diagnostics.append(
          Diagnostic("includes nested more than \(maxDepth) deep", file: statement.file, range: range))
        continue
      }
      let loaded = state.cache[resolved] ?? load(resolved, written: written, includer: statement.file, range: range)
      state.cache[resolved] = loaded
      switch loaded {
      case .failure(let problem):
        state.diagnostics.append(problem.diagnostic(in: statement.file))
      case .success(let (included, parseDiagnostics)):
        if !state.reported.contains(resolved) {
          state.reported.insert(resolved)
          state.diagnostics.append(contentsOf: parseDiagnostics)
        }
        expand(included, stack: stack + [resolved], into: &statements, state: &state)
      }
    }
  }

  static func normalize(_ path: String) -> String { PathText.normalize(path) }

  /// Where a symbolic link at `path` finally points (nil when `path` is not a link).
  static func linkTarget(_ path: String) -> String? {
    guard (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil else { return nil }
    return URL(fileURLWithPath: path).resolvingSymlinksInPath().lastPathComponent
  }

  private func load(_ path: String, written: String, includer: SourceFile, range: SourceRange)
    -> Result<(Script, [Diagnostic]), Diagnostic.Partial>
  {
    // Only `.auth` scripts are read: a parse error would echo a line of any other file.
    if let target = Self.linkTarget(path), !target.hasSuffix(".auth") {
      return .failure(
        .init(
          "cannot include '\(written)'", range: range,
          note: "it links to a file that is not an .auth script; it was not read"))
    }
    do {
      let text = try readFile(path)
      let name = PathText.join(parentDirectory(of: includer.name), written)
      let file = SourceFile(name: Self.normalize(name), path: path, text: text)
      let (script, diagnostics) = Parser.parse(file)
      return .success((script, diagnostics))
    } catch {
      return .failure(.init("cannot read '\(written)'", range: range, note: ScriptReadError.reason(of: error)))
    }
  }
}
