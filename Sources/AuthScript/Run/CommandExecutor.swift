import AuthCore
import Essentials
import ShellKit

/// How the interpreter runs a table command and shows its result: the real `CommandRunner` and
/// `HumanRenderer` in the product, a fake in tests.
package struct CommandExecutor: Sendable {
  package typealias Run = @Sendable (Invocation, ShellContext) async -> CommandResult
  /// Human text of a result (`authsh < file` and `source` print each command's output).
  package typealias Render = @Sendable (CommandResult, Invocation, Style, _ now: Int) -> (out: String, err: String)

  package var run: Run
  package var render: Render?

  package init(run: @escaping Run, render: Render? = nil) {
    self.run = run
    self.render = render
  }
}

/// Shared by the files of one run: set at the first failure under `--fail-fast`.
package final class StopFlag: Sendable {
  private let stopped = Guarded(false)
  package init() {}
  package var isSet: Bool { stopped[\.self] }
  package func set() { stopped[\.self] = true }
}

/// What the interpreter reports while it runs (the runner formats; the interpreter never prints).
package struct InterpreterEvents: Sendable {
  package var testFinished: @Sendable (TestResult) -> Void
  /// Text a command produced for the user (`echo`, `help`; every command in transcript mode).
  package var output: @Sendable (String, ShellKit.OutputStream) -> Void
  /// A command's output that shows values the redactor knows (`--show-tokens`); nil: `output`.
  package var revealing: (@Sendable (String, ShellKit.OutputStream, _ values: [String]) -> Void)?

  package init(
    testFinished: @escaping @Sendable (TestResult) -> Void = { _ in },
    output: @escaping @Sendable (String, ShellKit.OutputStream) -> Void = { _, _ in },
    revealing: (@Sendable (String, ShellKit.OutputStream, _ values: [String]) -> Void)? = nil
  ) {
    self.testFinished = testFinished
    self.output = output
    self.revealing = revealing
  }
}

extension CommandExecutor {
  /// The product: `CommandRunner` runs, `HumanRenderer` shows.
  package static let standard = CommandExecutor(
    run: { invocation, context in await CommandRunner().run(invocation, in: context) },
    render: { result, invocation, style, now in
      ResultText.render(result, invocation: invocation, style: style, now: now)
    })
}
