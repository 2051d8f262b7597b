import AuthCore
import Essentials
import JSONKit

/// `user export --db URL`: every account of a Supabase project straight from its database —
/// GoTrue's `auth.users`, with `auth.identities` and `auth.mfa_factors` where they exist — so the
/// records carry `encrypted_password` as `password_hash`. One connection through libpq (loaded
/// at run time: see CPq), one read-only repeatable-read transaction (a consistent snapshot;
/// nothing can be written through it), pages by user id.
package actor PostgresAccountReader: AccountReader {
  let connection: PqConnection
  let url: DatabaseURL
  let query: AuthUsersQuery
  private var closed = false

  package var notices: [String] { [] }

  init(connection: PqConnection, url: DatabaseURL, query: AuthUsersQuery) {
    self.connection = connection
    self.url = url
    self.query = query
  }

  /// Connects, starts the read-only transaction and checks that GoTrue's tables are there.
  /// `environment`: where libpq's certificate settings are looked up (the command's own).
  package static func open(
    _ text: String, timeout: Double, environment: [String: String] = ProcessInfo.processInfo.environment
  ) async throws -> PostgresAccountReader {
    let url = try DatabaseURL(text, environment: environment)
    let roots = DatabaseURL.rootCertificate(
      environment: environment, home: environment["HOME"], exists: { FileManager.default.fileExists(atPath: $0) })
    let connection: PqConnection
    do {
      connection = try await PqConnection.connect(url.connectionParameters(timeout: timeout, rootCertificate: roots))
    } catch {
      throw DatabaseErrors.map(error, url: url)
    }
    do {
      _ = try await connection.execute("START TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
      let query = try await AuthUsersQuery.inspect(connection, url: url)
      return PostgresAccountReader(connection: connection, url: url, query: query)
    } catch {
      await connection.finish()
      throw DatabaseErrors.map(error, url: url)
    }
  }

  package func page(after token: String?, size: Int) async throws -> AccountPage {
    do {
      let statement = query.page(after: token, size: size)
      let found = try await connection.execute(statement.sql, statement.parameters)
      let accounts = try found.rows.map(AuthUsersQuery.account)
      let next = accounts.count < size ? nil : accounts.last?.id
      return AccountPage(accounts: accounts, next: next)
    } catch {
      throw DatabaseErrors.map(error, url: url)
    }
  }

  package func close() async {
    guard !closed else { return }
    closed = true
    // The transaction wrote nothing; ending it and the connection politely.
    _ = try? await connection.execute("COMMIT")
    await connection.finish()
  }
}
