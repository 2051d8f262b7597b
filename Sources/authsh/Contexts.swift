import AuthCore
import Foundation
import NIOTransport
import Providers
import ShellKit

/// Builds the `ShellContext` every surface runs commands in.
enum Contexts {
  static func make(
    _ arguments: Arguments, environment: [String: String], store: (any SessionStore)? = nil, sink: any OutputSink
  ) -> ShellContext {
    let paths = Paths(environment: environment)
    let resolver = ConfigResolver(environment: environment, paths: paths, configFile: readConfig(paths.configFile))
    // Plain http:// (emulators on loopback) through SwiftNIO; TLS through URLSession.
    let transport = SchemeRoutingTransport(fallback: URLSessionTransport())
    let clock = SystemClock()
    let context = ShellContext(
      resolver: resolver, connection: arguments.connection,
      makeProvider: { target, trace in ProviderFactory.make(target, transport: transport, clock: clock, trace: trace) },
      sessionStore: store ?? FileSessionStore(directory: paths.sessionsDirectory), clock: clock, environment: environment)
    // The service-account exchange registers the assertion and access token it makes.
    let redactor = context.redactor
    context.makeAdminProvider = { target, credential, trace in
      AdminProviderFactory.make(
        target, credential: credential, transport: transport, clock: clock, trace: trace,
        secrets: { secret in redactor.register(secret) })
    }
    context.redactor.register(arguments.connection.key)
    context.traceSink = { line in sink.err(line + "\n") }
    return context
  }

  static func readConfig(_ path: String) -> ConfigResolver.ConfigFileContents? {
    var info = stat()
    guard stat(path, &info) == 0, let data = FileManager.default.contents(atPath: path) else { return nil }
    return .init(text: String(decoding: data, as: UTF8.self), mode: UInt32(info.st_mode))
  }
}
