import AuthCore
import Foundation
import JSONKit
import Logging
import PostgresNIO

/// `user export --db URL`: every account of a Supabase project straight from its database —
/// GoTrue's `auth.users`, with `auth.identities` and `auth.mfa_factors` where they exist — so the
/// records carry `encrypted_password` as `password_hash`. One connection, one read-only
/// repeatable-read transaction (a consistent snapshot; nothing can be written through it), pages
/// by user id.
public actor PostgresAccountReader: AccountReader {
  let connection: PostgresConnection
  let url: DatabaseURL
  let query: AuthUsersQuery
  let logger: Logger
  private var closed = false

  public var notices: [String] { [] }

  init(connection: PostgresConnection, url: DatabaseURL, query: AuthUsersQuery, logger: Logger) {
    self.connection = connection
    self.url = url
    self.query = query
    self.logger = logger
  }

  /// Connects, starts the read-only transaction and checks that GoTrue's tables are there.
  public static func open(_ text: String, timeout: Double) async throws -> PostgresAccountReader {
    let url = try DatabaseURL(text)
    let logger = Logger(label: "authsh.db", factory: { _ in SwiftLogNoOpLogHandler() })
    var configuration = PostgresConnection.Configuration(
      host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
      tls: try tls(url.tls))
    configuration.options.connectTimeout = .milliseconds(Int64(max(timeout, 0.001) * 1000))
    let connection: PostgresConnection
    do {
      connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    } catch {
      throw DatabaseErrors.map(error, url: url, phase: .connect)
    }
    do {
      try await connection.query("START TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
      let query = try await AuthUsersQuery.inspect(connection, logger: logger, url: url)
      return PostgresAccountReader(connection: connection, url: url, query: query, logger: logger)
    } catch {
      try? await connection.close()
      throw DatabaseErrors.map(error, url: url, phase: .read)
    }
  }

  static func tls(_ mode: DatabaseURL.TLSMode) throws -> PostgresConnection.Configuration.TLS {
    switch mode {
    case .disable: return .disable
    case .prefer, .require:
      var configuration = TLSConfiguration.makeClientConfiguration()
      configuration.certificateVerification = .none
      let context = try NIOSSLContext(configuration: configuration)
      return mode == .prefer ? .prefer(context) : .require(context)
    case .verifyCA, .verifyFull:
      var configuration = TLSConfiguration.makeClientConfiguration()
      configuration.certificateVerification = mode == .verifyFull ? .fullVerification : .noHostnameVerification
      return .require(try NIOSSLContext(configuration: configuration))
    }
  }

  public func page(after token: String?, size: Int) async throws -> AccountPage {
    do {
      let rows = try await connection.query(query.page(after: token, size: size), logger: logger)
      var accounts: [PortableAccount] = []
      for try await row in rows {
        accounts.append(try AuthUsersQuery.account(row.makeRandomAccess()))
      }
      let next = accounts.count < size ? nil : accounts.last?.id
      return AccountPage(accounts: accounts, next: next)
    } catch let error as AuthError {
      throw error
    } catch {
      throw DatabaseErrors.map(error, url: url, phase: .read)
    }
  }

  public func close() async {
    guard !closed else { return }
    closed = true
    // The transaction wrote nothing; ending it and the connection politely.
    _ = try? await connection.query("COMMIT", logger: logger)
    try? await connection.close()
  }
}
