import AuthCore
import Essentials
import JSONKit

/// The interactive shell: reads lines, runs table commands, and handles the shell's own
/// commands (`retry`, `history`, `source`, `quit`/`exit`). No libedit here: the line reader is
/// injected, so tests drive it with `ScriptedLineReader`.
package final class Repl {
  package let context: ShellContext
  package let reader: any LineReader
  package let output: any OutputSink
  package var options: ReplOptions
  /// This session's lines, secrets masked (`history`).
  package private(set) var sessionLines: [String] = []
  /// Whether a command failed (the exit status of a non-interactive run).
  package internal(set) var anyFailed = false
  private var lastRecalled: String?
  /// The last command's result model and when it finished, for `{{inbox.link}}`-style holes.
  private var previous: (result: CommandResult, now: Int)?
  /// Where text goes: `output`, or while the startup file runs, one that names `rc:LINE`.
  private(set) var sink: any OutputSink

  package init(context: ShellContext, reader: any LineReader, output: any OutputSink, options: ReplOptions) {
    self.context = context
    self.reader = reader
    self.output = output
    self.options = options
    self.sink = output
  }

  /// Runs until `quit`, `exit` or end of input. 0, or 1 when not interactive and a command failed.
  package func run() async -> Int32 {
    if options.interactive { sink.out(ReplRendering.greeting) }
    do {
      try options.history?.check()
    } catch {
      // A state directory others can write: the history is neither read nor written.
      let failure = (error as? AuthError) ?? AuthError(.configError, message: "\(error)")
      sink.err(HumanRenderer.renderError(failure, style: options.style) + "History is not kept in this session.\n")
      options.history = nil
    }
    for line in options.history?.load() ?? [] {
      reader.addHistory(line, persist: false)
      lastRecalled = line
    }
    if !options.noRC, let rc = options.rcFile, let text = try? String(contentsOfFile: rc, encoding: .utf8) {
      let name = rc.split(separator: "/").last.map(String.init) ?? rc
      defer { sink = output }
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        sink = LocatingSink(base: output, location: "\(name):\(index + 1)")
        guard await handle(String(line), record: false) else { return exitStatus }
      }
    }
    while let line = reader.readLine(prompt: prompt()) {
      guard await handle(line) else { break }
    }
    return exitStatus
  }

  private var exitStatus: Int32 { options.interactive || !anyFailed ? 0 : 1 }

  /// The prompt: `supabase:default ada@example.com> `, or `authsh> ` with nothing configured.
  package func prompt() -> String {
    guard options.interactive else { return "" }
    guard let target = try? context.target() else { return "authsh> " }
    var text = "\(target.provider.rawValue):\(target.profile)"
    if let who = try? context.sessions(for: target).storedSession()?.user.label { text += " " + who }
    return TerminalText.escape(text) + "> "
  }

  /// Handles one line; false when the shell should end.
  @discardableResult
  package func handle(_ line: String, record: Bool = true) async -> Bool {
    guard !line.trimmingWhitespace.isEmpty else { return true }
    var words: [Word]
    do {
      words = try WordSplitter.split(line)
    } catch {
      sink.err(ReplRendering.splitError(error, line: line, style: options.style))
      remember(line, invocation: nil, record: record)
      anyFailed = true
      return true
    }
    guard !words.isEmpty else { return true }
    if line.contains("{{"), let interpolate = options.interpolate {
      // The line is kept as typed (history, `retry`'s echo); only what runs has the values.
      let model = previous.map { $0.result.json(now: $0.now, revealTokens: true, includeClaims: true) }
      switch interpolate(words, line, model) {
      case .success(let filled): words = filled
      case .failure(let problem):
        sink.err(ReplRendering.interpolationError(problem, line: line, style: options.style))
        remember(line, invocation: nil, record: record)
        anyFailed = true
        return true
      }
    }
    if let help = ReplRendering.helpRequest(words) {
      // `login --help`, `whoami -h`: the command's help, as on the command line.
      remember(line, invocation: nil, record: record)
      switch HelpTopics.render(help, surface: .interactive) {
      case .success(let text): sink.out(text + "\n")
      case .failure(let problem): sink.err(options.style.red("error:") + " \(problem.fullMessage)\n")
      }
      return true
    }
    let invocation: Invocation
    switch InvocationParser.parse(words, surface: .repl) {
    case .failure(let usage):
      sink.err(ReplRendering.usageError(usage, words: words, line: line, style: options.style))
      remember(line, invocation: nil, record: record)
      anyFailed = true
      return true
    case .success(let parsed):
      invocation = parsed.withOutputDefaults(context.outputDefaults)
    }
    if invocation.given(.password), options.interactive {
      sink.err(ReplRendering.passwordWarning(style: options.style))
    }
    if let builtin = Repl.builtins[invocation.id] {
      remember(line, invocation: invocation, record: record)
      return await builtin.run(invocation, in: self)
    }
    let result = await execute(invocation)
    let refused = result.error?.code == .invalidCredentials
    remember(line, invocation: invocation, record: record && !(refused && invocation.carriesSecret))
    return true
  }

  /// Runs a table command with the spinner and Ctrl-C, renders its result, and keeps it for `retry`.
  @discardableResult
  func execute(_ invocation: Invocation) async -> CommandResult {
    let loading = options.interactive ? LoadingText.text(for: invocation.spec, target: try? context.target()) : nil
    let spinner = loading == nil ? nil : options.spinner
    // A prompt of this command stops its spinner while it asks.
    let pause = spinner.flatMap { spinner in loading.map { PromptPause(spinner: spinner, text: $0) } }
    // `user show --jsonl`: each account's line as its lookup completes, no spinner in between.
    var io = CommandIO()
    if CommandTable.live(invocation) == .lookups, invocation[.jsonl], !invocation.output(.json) {
      let out = sink
      let reveal = invocation.output(.showTokens)
      io.lookupStream = { lookup in
        out.out(CommandResult.lookupJSON(lookup, revealTokens: reveal).compactText + "\n")
      }
    }
    let streams = io.lookupStream != nil
    if let loading, !streams { spinner?.start(loading) }
    let execute = options.execute
    let context = self.context
    let result = await cancellable(invocation.spec) { [io] in
      await PromptPause.$current.withValue(pause) { await execute(invocation, context, io) }
    }
    spinner?.stop()
    if (result.payload(as: AccountsOutput.self)?.streamed ?? 0) == 0 {
      render(result, invocation: invocation)
    } else if let error = result.error, error.code == .usage {
      sink.err(HumanRenderer.renderError(error, style: options.style))
    }
    if invocation.spec.producesResult || previous == nil {
      previous = (result, context.clock.unixNow)
      context.previousResult = result.json(now: context.clock.unixNow, revealTokens: false, includeClaims: true)
    } else if let output = result.output {
      previous?.result.output = output  // `echo` keeps the previous result; `output` is its text
    }
    if let error = result.error {
      anyFailed = true
      context.lastFailed = error.code == .invalidCredentials ? HistoryPolicy.withoutSecrets(invocation) : invocation
    } else if context.lastFailed?.spec == invocation.spec {
      context.lastFailed = nil
    }
    return result
  }

  func source(_ path: String) async {
    guard let sourceFile = options.sourceFile else {
      sink.err(options.style.red("error:") + " source is not available in this shell\n")
      anyFailed = true
      return
    }
    guard path.hasSuffix(".auth") else {
      // Not read at all: a line of a .env or a key file would come back as an unknown command.
      sink.err(
        options.style.red("error:")
          + " source needs an .auth script: other files are not read; write source FILE.auth\n")
      anyFailed = true
      return
    }
    let status = await cancellable(name: "source", cancelled: Int32(130)) { await sourceFile(path) }
    if status != 0 {
      anyFailed = true
      if status == 130 { sink.err(options.style.dim("Cancelled.") + "\n") }
    }
  }

  private func cancellable(_ spec: CommandSpec, _ body: @escaping @Sendable () async -> CommandResult) async
    -> CommandResult
  {
    await cancellable(name: spec.name, cancelled: CommandTable.failure(spec, AuthError(.cancelled)), body)
  }

  /// Runs `body` in a task that Ctrl-C cancels; the shell returns at once with `cancelled`.
  private func cancellable<T: Sendable>(
    name: String, cancelled: T, _ body: @escaping @Sendable () async -> T
  ) async -> T {
    guard let interrupts = options.interrupts else { return await body() }
    let once = ResumeOnce<T>()
    // The handler goes first, so a password prompt inside the task stacks on top of it.
    let id = interrupts.push { once.resume(with: cancelled) }
    defer { interrupts.pop(id) }
    let task = Task { await body() }
    once.setCancel { task.cancel() }
    return await withCheckedContinuation { continuation in
      once.set(continuation)
      Task {
        let value = await task.value
        once.resume(with: value)
      }
    }
  }

  private func render(_ result: CommandResult, invocation: Invocation) {
    let now = context.clock.unixNow
    let visible = RedactingSink.revealing(ResultText.revealed(result, invocation: invocation), in: sink)
    if let error = result.error, error.code == .cancelled {
      // On a terminal, over the `^C` the terminal echoed. A confirmation answered no sent nothing:
      // it says so instead of "may already have been applied".
      let said = error.neverSent ? error.message : "Cancelled."
      sink.err((options.interactive ? "\r\u{1B}[K" : "") + options.style.dim(said) + "\n")
      if !error.neverSent, let note = ResultText.cancelledNote(invocation, error: error) {
        sink.err(options.style.dim(TerminalText.escape(note)) + "\n")
      }
      return
    }
    let (out, err) = ResultText.render(result, invocation: invocation, style: options.style, now: now)
    if !out.isEmpty { visible.out(out) }
    if !err.isEmpty { visible.err(err) }
  }

  /// Puts a line in the history as the policy says; `history` lists it masked.
  private func remember(_ line: String, invocation: Invocation?, record: Bool) {
    guard record else { return }
    let decision = HistoryPolicy.decide(line, invocation: invocation)
    guard decision != .skip else { return }
    let trimmed = line.trimmingWhitespace
    sessionLines.append(HistoryPolicy.masked(trimmed))
    guard trimmed != lastRecalled else { return }
    lastRecalled = trimmed
    reader.addHistory(trimmed, persist: decision == .persist && options.history != nil)
    if decision == .persist { options.history?.append(trimmed) }
  }
}

/// Resumes a continuation once, from whichever comes first: the result or a Ctrl-C.
private final class ResumeOnce<T: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<T, Never>?
    var early: T?
    var done = false
    var cancel: (@Sendable () -> Void)?
  }
  private let state = Guarded(State())

  /// What ends the work when Ctrl-C comes first (run at once if it already came).
  func setCancel(_ cancel: @escaping @Sendable () -> Void) {
    let already = state.update { state in
      state.cancel = cancel
      return state.done
    }
    if already { cancel() }
  }

  func set(_ continuation: CheckedContinuation<T, Never>) {
    let early = state.update { state -> T? in
      if let early = state.early { return early }
      state.continuation = continuation
      return nil
    }
    if let early { continuation.resume(returning: early) }
  }

  func resume(with value: T) {
    let taken = state.update {
      state -> (continuation: CheckedContinuation<T, Never>?, cancel: (@Sendable () -> Void)?)? in
      guard !state.done else { return nil }
      state.done = true
      guard let continuation = state.continuation else {
        state.early = value
        return (nil, state.cancel)
      }
      state.continuation = nil
      return (continuation, state.cancel)
    }
    guard let taken else { return }
    taken.continuation?.resume(returning: value)
    taken.cancel?()
  }
}
