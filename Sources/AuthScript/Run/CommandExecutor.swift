import AuthCore
import Essentials
import ShellKit

/// How the interpreter runs a table command and shows its result: the real `CommandRunner` and
/// `HumanRenderer` in the product, a fake in tests.
public struct CommandExecutor: Sendable {
  public typealias Run = @Sendable (Invocation, ShellContext) async -> CommandResult
  /// Human text of a result (`authsh < file` and `source` print each command's output).
  public typealias Render = @Sendable (CommandResult, Invocation, Style, _ now: Int) -> (out: String, err: String)

  public var run: Run
  public var render: Render?

  public init(run: @escaping Run, render: Render? = nil) {
    self.run = run
    self.render = render
  }
}

/// Shared by the files of one run: set at the first failure under `--fail-fast`.
public final class StopFlag: Sendable {
  private let stopped = Guarded(false)
  public init() {}
  public var isSet: Bool { stopped[\.self] }
  public func set() { stopped[\.self] = true }
}

/// What the interpreter reports while it runs (the runner formats; the interpreter never prints).
public struct InterpreterEvents: Sendable {
  public var testFinished: @Sendable (TestResult) -> Void
  /// Text a command produced for the user (`echo`, `help`; every command in transcript mode).
  public var output: @Sendable (String, ShellKit.OutputStream) -> Void
  /// A command's output that shows values the redactor knows (`--show-tokens`); nil: `output`.
  public var revealing: (@Sendable (String, ShellKit.OutputStream, _ values: [String]) -> Void)?

  public init(
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
  public static let standard = CommandExecutor(
    run: { invocation, context in await CommandRunner().run(invocation, in: context) },
    render: { result, invocation, style, now in
      ResultText.render(result, invocation: invocation, style: style, now: now)
    })
}
