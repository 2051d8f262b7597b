import Essentials
import JSONKit

/// The account files `user import` reads, told apart by their content: the portable JSONL record
/// (one object per line), Firebase's `auth:import` JSON (`{"users":[…]}`, `--format firebase`),
/// or CSV with a header row (`--format csv`, nested fields as JSON text).
package enum AccountFileFormat: String, Sendable, Equatable {
  case jsonl, firebase, csv
  /// firebase-tools' `auth:export --format csv` (no header, positional fields).
  case firebaseCSV = "firebase-csv"
  /// A `\copy auth.users … csv header` of GoTrue's table.
  case authUsers = "auth.users"
}

package enum PortableAccountReader {
  /// The note of a Firebase record with a hash read without `--hash-config`.
  package static let missingHashConfig = "the Firebase format has no hash parameters; give --hash-config FILE"

  /// Reads every account of `text` (`AccountStream` reads a file a record at a time). `hashConfig`
  /// turns the Firebase format's `passwordHash` and `salt` into `$fbscrypt$` strings; without it
  /// those accounts have no hash and a note why.
  package static func read(_ text: String, hashConfig: FirebaseHashConfig? = nil) throws -> (
    AccountFileFormat, [PortableAccount]
  ) {
    let stream = AccountStream(text: text, hashConfig: hashConfig)
    var accounts: [PortableAccount] = []
    while let account = try stream.next() { accounts.append(account) }
    return (stream.format, accounts)
  }

  /// One line of authsh's JSONL (trimmed, not blank; a slice of the whole line).
  static func jsonlRecord(_ line: ArraySlice<UInt8>, line number: Int) throws -> PortableAccount {
    do {
      return try PortableAccount(json: try JSON.parse(bytes: line))
    } catch let error as PortableAccountError {
      throw PortableAccountError("line \(number): \(error.message)")
    } catch let error as JSONParseError {
      // Where the parser stopped says more than "not JSON" (a line cut short, a stray comma).
      // The line's leading blanks count: `line` keeps its place in the whole line.
      throw PortableAccountError(
        "line \(number): not valid JSON (\(error.reason) at column \(line.startIndex + error.offset + 1))")
    } catch {
      throw PortableAccountError("line \(number): not a JSON object")
    }
  }

  // MARK: - Firebase's auth:import JSON

  static func firebaseAccount(_ json: JSON, index: Int, hashConfig: FirebaseHashConfig?, label: String? = nil) throws
    -> PortableAccount
  {
    let label = label ?? "users[\(index)]"
    guard json.object != nil else { throw PortableAccountError("\(label) is not an object") }
    var account = PortableAccount(id: json["localId"]?.string, email: json["email"]?.string)
    account.emailVerified = json["emailVerified"]?.bool
    account.displayName = json["displayName"]?.string
    account.phone = json["phoneNumber"]?.string
    // Firebase holds a number only once a code confirmed it.
    if account.phone?.isEmpty == false { account.phoneConfirmed = true }
    account.photoURL = json["photoUrl"]?.string.flatMap { $0.isEmpty ? nil : $0 }
    account.disabled = json["disabled"]?.bool
    account.createdAt = try time(json, "createdAt", label: label)
    account.lastSignInAt = try time(
      json, json["lastSignedInAt"] == nil ? "lastLoginAt" : "lastSignedInAt", label: label)
    if let claims = json["customAttributes"]?.string, !claims.trimmingWhitespace.isEmpty {
      guard case .object(let object)? = try? JSON.parse(claims) else {
        throw PortableAccountError("\(label): customAttributes is not a JSON object")
      }
      if !object.isEmpty { account.appMetadata = JSONObject([("claims", .object(object))]) }
    }
    // firebase-tools writes `mfaInfo` since 2026 (older files have none: unknown, not none).
    if let mfa = json["mfaInfo"] {
      guard let items = mfa.array ?? (mfa.isNull ? [] : nil) else {
        throw PortableAccountError("\(label): mfaInfo is not a list")
      }
      account.factors = items.compactMap { info in
        guard let id = info["mfaEnrollmentId"]?.string, !id.isEmpty else { return nil }
        let type = info["phoneInfo"] != nil ? "phone" : info["totpInfo"] != nil ? "totp" : "other"
        return PortableFactor(id: id, type: type, friendlyName: info["displayName"]?.string)
      }
    }
    account.providers = (json["providerUserInfo"]?.array ?? []).compactMap { $0["providerId"]?.string }
    account.source = "firebase"
    if let hash = json["passwordHash"]?.string, !hash.isEmpty {
      // bcrypt and argon2 travel as the base64 of their own text (`--hash-algo BCRYPT`): they say
      // what they are, whatever --hash-config says.
      if let text = PasswordHashString.bytes(hash).flatMap({ String(validating: $0, as: UTF8.self) }),
        PasswordHashString.identifiesItself(text)
      {
        account.passwordHash = text
      } else if let hashConfig {
        account.passwordHash = PasswordHashString.firebaseImport(
          hashConfig, salt: json["salt"]?.string ?? "", hash: hash)
        if account.passwordHash == nil { throw PortableAccountError("\(label): passwordHash or salt is not base64") }
      } else {
        account.passwordNote = missingHashConfig
      }
    }
    return account
  }

  /// A time in milliseconds (a number or its digits) as RFC 3339 text; one before 1970 or after
  /// 9999 is a corrupt file, not a time to send on.
  static func time(_ json: JSON, _ field: String, label: String) throws -> String? {
    guard let value = json[field], let milliseconds = value.int ?? value.string.flatMap({ Int($0) }) else { return nil }
    guard milliseconds >= 0, UnixTime.isPlausible(milliseconds / 1000) else {
      throw PortableAccountError(
        "\(label): \(field) \(milliseconds) is not a time between 1970 and 9999 (milliseconds)")
    }
    return CivilTime.iso8601(milliseconds: milliseconds)
  }

  // MARK: - CSV

  /// Columns whose cells are JSON text (objects and lists).
  static let jsonColumns: Set<String> = ["user_metadata", "app_metadata", "providers", "identities", "factors"]
  static let boolColumns: Set<String> = ["email_verified", "disabled", "phone_verified"]

  /// The columns authsh's own CSV (`user export --format csv`) may have.
  static let portableColumns: Set<String> = Set(PortableAccount.keys)

  /// A header row of authsh's CSV: it names `email` or `id`, and only authsh's columns.
  static func checkPortableHeader(_ first: CSVRecord) throws {
    let header = first.fields
    guard header.contains("email") || header.contains("id"), Set(header).isSubset(of: portableColumns) else {
      let shown = header.prefix(6).joined(separator: ",")
      throw PortableAccountError(
        "line \(first.line): '\(shown.count > 80 ? String(shown.prefix(79)) + "…" : shown)' is no header authsh reads; expected "
          + "authsh's columns (id,email,…, as user export --format csv writes them), the columns of auth.users "
          + "(\\copy … csv header), or firebase-tools' CSV (no header, 28 fields a row)")
    }
  }

  static func fieldCount(_ record: CSVRecord, header: [String]) -> PortableAccountError {
    PortableAccountError(
      "line \(record.line): \(record.fields.count) fields where the header names \(header.count); every row needs exactly the header's fields"
    )
  }

  /// One row of authsh's CSV.
  static func portableRow(_ record: CSVRecord, header: [String]) throws -> PortableAccount {
    let row = record.fields
    // A row with a field too few or too many would shift every column after the gap.
    guard row.count == header.count else { throw fieldCount(record, header: header) }
    var object = JSONObject()
    for (column, cell) in zip(header, row) where !cell.isEmpty {
      if jsonColumns.contains(column) {
        guard let value = try? JSON.parse(cell) else {
          throw PortableAccountError("line \(record.line): \(column) is not JSON")
        }
        object[column] = value
      } else if boolColumns.contains(column) {
        object[column] = .bool(cell.lowercased() == "true")
      } else {
        object[column] = .string(cell)
      }
    }
    do {
      return try PortableAccount(json: .object(object))
    } catch let error as PortableAccountError {
      throw PortableAccountError("line \(record.line): \(error.message)")
    }
  }
}
