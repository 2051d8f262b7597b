import AuthCore
import CurlTransport
import Essentials
import Keyring
import NIOTransport
import Providers
import ShellKit
import SocketTransport

/// Builds the `ShellContext` every surface runs commands in.
enum Contexts {
  static func make(
    _ arguments: Arguments, environment: [String: String], store: (any SessionStore)? = nil, emulated: Bool = false,
    sink: any OutputSink, surface: (inout ShellServices) -> Void = { _ in }
  ) -> ShellContext {
    let paths = Paths(environment: environment)
    let resolver = ConfigResolver(environment: environment, paths: paths, configFile: readConfig(paths.configFile))
    // Plain http:// (emulators on loopback): on a script's own thread with blocking socket calls,
    // elsewhere through SwiftNIO; TLS through libcurl (loaded on first use).
    let transport = SchemeRoutingTransport(
      plain: ThreadRoutingTransport(elsewhere: NIOHTTPTransport()), fallback: CurlTransport(environment: environment))
    let clock = SystemClock()
    // A traced answer's TOTP secret is registered before the answer is traced.
    let redactor = Redactor()
    // The platform keyring holds session tokens (credential_store) and `secret set` keys. Given a
    // store (memory: --emulator, scripts), sessions stay there whatever credential_store says.
    let keyring = PlatformKeyring.make(environment: environment)
    var services = ShellServices(
      makeProvider: { target, trace in
        ProviderFactory.make(
          target, transport: transport, clock: clock, trace: trace, secrets: { redactor.register($0) })
      },
      sessionStore: store ?? FileSessionStore(directory: paths.sessionsDirectory, stateDirectory: paths.stateDirectory),
      clock: clock, redactor: redactor,
      // The service-account exchange registers the assertion and access token it makes.
      makeAdminProvider: { target, credential, trace in
        AdminProviderFactory.make(
          target, credential: credential, transport: transport, clock: clock, trace: trace,
          secrets: { secret in redactor.register(secret) })
      },
      sessionStores: store != nil
        ? nil
        : SessionStores(
          directory: paths.sessionsDirectory, stateDirectory: paths.stateDirectory, keyring: keyring,
          notice: { line in sink.err("authsh: \(line)\n") }),
      secretStore: keyring,
      // An embedded emulator's accounts vanish with the process: their changes stay out of
      // audit.jsonl (kept for this session's `audit`).
      auditLog: emulated ? MemoryAuditLog() : FileAuditLog(paths: paths),
      operatorName: operatorName(),
      traceSink: { line in sink.err(line + "\n") },
      readConfigFile: { readConfig(paths.configFile) },
      browserSignIn: LoopbackBrowserSignIn(environment: environment, sink: sink))
    // What the surface adds: a terminal's prompters, standard input for one command.
    surface(&services)
    let context = ShellContext(
      resolver: resolver, connection: arguments.connection, services: services, environment: environment)
    redactor.register(arguments.connection.key)
    context.style = Terminal.style(flag: nil, environment: environment)
    return context
  }

  /// The OS user and host for the audit log (`ada@laptop`): the account running authsh (not
  /// `$USER`, which anyone can set), and the host name.
  static func operatorName() -> String {
    var user = ""
    if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { user = String(cString: name) }
    if user.isEmpty { user = "uid \(getuid())" }
    var buffer = [CChar](repeating: 0, count: 256)
    var host = ""
    if gethostname(&buffer, buffer.count - 1) == 0 {
      let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      host = String(decoding: bytes, as: UTF8.self)
    }
    return host.isEmpty ? user : "\(user)@\(host)"
  }

  /// config.toml's text; nil when there is none; a `problem` when it exists but cannot be read.
  static func readConfig(_ path: String) -> ConfigResolver.ConfigFileContents? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let mode = UInt32(info.st_mode)
    var directory = stat()
    let directoryMode = stat(parentDirectory(of: path), &directory) == 0 ? UInt32(directory.st_mode) : nil
    var contents: ConfigResolver.ConfigFileContents
    if info.st_mode & S_IFMT == S_IFDIR {
      contents = .init(unreadable: "it is a directory", mode: mode)
    } else {
      // Walked one hop at a time and read from the descriptor the walk opened (no second lookup).
      do {
        let fd = try SafePath.open(path, flags: O_RDONLY | O_NONBLOCK)
        defer { Descriptor.release(fd) }
        let bytes = try? Descriptor.readAll(fd)
        contents =
          bytes.map { .init(text: String(decoding: $0, as: UTF8.self), mode: mode) }
          ?? .init(unreadable: "it could not be read", mode: mode)
      } catch  where error.reason != nil {
        contents = .init(text: "", mode: mode)  // never read: refused below
        contents.untrusted = TrustedPath.Problem(
          reason: error.description,
          hint: "Keep config.toml in a directory of yours (AUTHSH_CONFIG_DIR), reached through no one else's link")
      } catch {
        contents = .init(unreadable: error.code == EACCES ? "permission denied" : "it could not be read", mode: mode)
      }
    }
    contents.directoryMode = directoryMode
    if let problem = TrustedPath.problem(of: path, home: ProcessInfo.processInfo.environment["HOME"]) {
      contents.untrusted = problem
    }
    return contents
  }
}
