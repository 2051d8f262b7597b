import Dispatch
import Essentials
import Synchronization

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ctrl-C for the shell. SIGINT never ends the process: it is delivered to the innermost
/// handler — the line editor (clears the line), the password prompt (cancels it) or the running
/// command (cancels its task). Tests call `fire()` instead of sending signals.
/// The signal arrives through a dispatch source (its handler runs on a queue, not in the C signal
/// handler), so the state can sit behind an ordinary mutex. `Mutex` rather than `Guarded`: the
/// dispatch source is not `Sendable`, and only a mutex may hold it.
package final class Interrupts: Sendable {
  private struct State {
    var handlers: [(id: Int, handler: @Sendable () -> Void)] = []
    var nextID = 0
    var source: (any DispatchSourceSignal)?
  }
  private let state = Mutex(State())

  package init() {}

  /// Routes SIGINT of the whole process here (ignoring its default action). Idempotent.
  package func installSignalHandler() {
    state.withLock { state in
      guard state.source == nil else { return }
      signal(SIGINT, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
      source.setEventHandler { [weak self] in self?.fire() }
      source.resume()
      state.source = source
    }
  }

  /// Gives SIGINT its default action back.
  package func uninstallSignalHandler() {
    state.withLock { state in
      state.source?.cancel()
      state.source = nil
      signal(SIGINT, SIG_DFL)
    }
  }

  /// Makes `handler` the receiver of Ctrl-C until `pop(id)`.
  @discardableResult
  package func push(_ handler: @escaping @Sendable () -> Void) -> Int {
    state.withLock { state in
      state.nextID += 1
      state.handlers.append((state.nextID, handler))
      return state.nextID
    }
  }

  package func pop(_ id: Int) {
    state.withLock { $0.handlers.removeAll { $0.id == id } }
  }

  /// One Ctrl-C: the innermost handler runs; with none, nothing happens.
  package func fire() {
    let handler = state.withLock { $0.handlers.last?.handler }
    handler?()
  }

  /// Runs `body` with `handler` receiving Ctrl-C.
  package func with<T>(_ handler: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
    let id = push(handler)
    defer { pop(id) }
    return try body()
  }
}

/// A pipe that a Ctrl-C handler writes to, so a thread blocked in `poll` wakes up.
package final class WakePipe: Sendable {
  package let readEnd: Int32
  package let writeEnd: Int32

  package init?() {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return nil }
    readEnd = fds[0]
    writeEnd = fds[1]
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  package func wake() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Empties the pipe; true when something was in it.
  @discardableResult
  package func drain() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 64)
    var any = false
    while read(readEnd, &buffer, buffer.count) > 0 { any = true }
    return any
  }
}
