import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process with pipes for stdin, stdout and stderr, driven by `poll` (EINTR retried
/// everywhere), for the tests that run the real binary.
struct ChildProcess {
  let pid: pid_t
  let input: Int32
  let output: Int32?
  let error: Int32

  struct SpawnError: Error, CustomStringConvertible {
    let description: String
  }

  static func spawn(
    _ path: String, _ arguments: [String], environment: [String: String], stdout: BinaryRunner.StandardOutput
  ) throws -> ChildProcess {
    func makePipe() throws -> (read: Int32, write: Int32) {
      var fds: [Int32] = [0, 0]
      guard pipe(&fds) == 0 else { throw SpawnError(description: "pipe: \(errno)") }
      // Close-on-exec, so children spawned at the same time by other tests do not hold them open.
      for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
      return (fds[0], fds[1])
    }
    let stdinPipe = try makePipe()
    let stdoutPipe = try makePipe()
    let stderrPipe = try makePipe()
    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
    #else
      var actions: posix_spawn_file_actions_t = nil  // an optional opaque pointer on Darwin
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdinPipe.read, 0)
    switch stdout {
    case .captured, .brokenPipe: posix_spawn_file_actions_adddup2(&actions, stdoutPipe.write, 1)
    case .deviceFull: posix_spawn_file_actions_addopen(&actions, 1, "/dev/full", O_WRONLY, 0)
    case .closed: posix_spawn_file_actions_addclose(&actions, 1)
    }
    posix_spawn_file_actions_adddup2(&actions, stderrPipe.write, 2)
    if stdout == .brokenPipe { close(stdoutPipe.read) }

    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      argv.forEach { free($0) }
      envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, path, &actions, nil, argv, envp)
    for fd in [stdinPipe.read, stdoutPipe.write, stderrPipe.write] { close(fd) }
    guard result == 0 else {
      for fd in [stdinPipe.write, stderrPipe.read] + (stdout == .brokenPipe ? [] : [stdoutPipe.read]) { close(fd) }
      throw SpawnError(description: "posix_spawn \(path): \(String(cString: strerror(result)))")
    }
    let keepsOutput = stdout == .captured
    if !keepsOutput && stdout != .brokenPipe { close(stdoutPipe.read) }
    _ = fcntl(stdinPipe.write, F_SETFL, fcntl(stdinPipe.write, F_GETFL) | O_NONBLOCK)
    return ChildProcess(
      pid: pid, input: stdinPipe.write, output: keepsOutput ? stdoutPipe.read : nil, error: stderrPipe.read)
  }

  /// Feeds `stdin` (then closes it) and reads stdout and stderr to their end; after `timeout`
  /// the child is killed and what it wrote so far is returned.
  func communicate(stdin: [UInt8], timeout: TimeInterval) -> (stdout: [UInt8], stderr: [UInt8]) {
    var pending = stdin[...]
    var input: Int32? = self.input
    if pending.isEmpty, let fd = input {
      close(fd)
      input = nil
    }
    var readers: [Int32: [UInt8]] = [error: []]
    if let output { readers[output] = [] }
    var open = Set(readers.keys)
    let deadline = Date().addingTimeInterval(timeout)
    var killed = false
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !open.isEmpty || input != nil {
      var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      if let fd = input { fds.append(pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)) }
      let remaining = deadline.timeIntervalSinceNow
      if remaining <= 0, !killed {
        kill(pid, SIGKILL)
        killed = true
      }
      let ready = poll(&fds, nfds_t(fds.count), killed ? 1000 : Int32(min(remaining, 1) * 1000) + 1)
      if ready < 0 {
        if errno == EINTR { continue }
        break
      }
      for entry in fds where entry.revents != 0 {
        if entry.fd == input {
          let written = pending.withUnsafeBytes { write(entry.fd, $0.baseAddress, $0.count) }
          if written > 0 { pending = pending.dropFirst(written) }
          if pending.isEmpty || (written < 0 && errno != EAGAIN && errno != EINTR) {
            close(entry.fd)
            input = nil
          }
          continue
        }
        let count = read(entry.fd, &buffer, buffer.count)
        if count > 0 {
          readers[entry.fd, default: []].append(contentsOf: buffer[0..<count])
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
          close(entry.fd)
          open.remove(entry.fd)
        }
      }
      if killed, ready == 0 { break }
    }
    for fd in open { close(fd) }
    if let fd = input { close(fd) }
    return (output.flatMap { readers[$0] } ?? [], readers[error] ?? [])
  }

  /// The exit status, or the signal's number and true when a signal ended the child.
  func wait() -> (status: Int32, signaled: Bool) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    return signal == 0 ? ((status >> 8) & 0xff, false) : (signal, true)
  }
}

/// Runs any program to completion with posix_spawn and poll (never Foundation's `Process`, which
/// crashes reading /proc/self/fd while many descriptors are open), optionally in `directory`.
package enum ProgramRunner {
  package struct Outcome: Sendable {
    package var status: Int32
    package var stdout: String
    package var stderr: String
  }

  package static func run(
    _ path: String, _ arguments: [String], environment: [String: String], directory: String? = nil,
    stdin: String = "", timeout: TimeInterval = 120
  ) throws -> Outcome {
    var program = path
    var argv = arguments
    if let directory {
      program = "/bin/sh"
      argv = ["-c", #"cd "$0" && exec "$@""#, directory, path] + arguments
    }
    let child = try ChildProcess.spawn(program, argv, environment: environment, stdout: .captured)
    let (out, err) = child.communicate(stdin: Array(stdin.utf8), timeout: timeout)
    let (status, _) = child.wait()
    return Outcome(
      status: status, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
  }
}
