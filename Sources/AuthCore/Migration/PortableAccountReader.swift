import Essentials
import JSONKit

/// The account files `user import` reads, told apart by their content: the portable JSONL record
/// (one object per line), Firebase's `auth:import` JSON (`{"users":[…]}`, `--format firebase`),
/// or CSV with a header row (`--format csv`, nested fields as JSON text).
public enum AccountFileFormat: String, Sendable, Equatable {
  case jsonl, firebase, csv
  /// firebase-tools' `auth:export --format csv` (no header, positional fields).
  case firebaseCSV = "firebase-csv"
  /// A `\copy auth.users … csv header` of GoTrue's table.
  case authUsers = "auth.users"
}

public enum PortableAccountReader {
  /// The note of a Firebase record with a hash read without `--hash-config`.
  public static let missingHashConfig = "the Firebase format has no hash parameters; give --hash-config FILE"

  /// Reads every account of `text`. `hashConfig` turns the Firebase format's `passwordHash` and
  /// `salt` into `$fbscrypt$` strings; without it those accounts have no hash and a note why.
  public static func read(_ text: String, hashConfig: FirebaseHashConfig? = nil) throws -> (
    AccountFileFormat, [PortableAccount]
  ) {
    // A byte-order mark (what some Windows editors save) is not content: with it, JSON read as CSV.
    let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    let trimmed = text.drop { $0.isWhitespace }
    if trimmed.hasPrefix("{"), let whole = try? JSON.parse(String(trimmed)), let users = whole["users"] {
      guard let users = users.array else { throw PortableAccountError("\"users\" is not a list of accounts") }
      return (
        .firebase,
        try users.enumerated().map { try firebaseAccount($0.element, index: $0.offset, hashConfig: hashConfig) }
      )
    }
    if trimmed.hasPrefix("{") { return (.jsonl, try jsonl(text)) }
    if trimmed.isEmpty { return (.jsonl, []) }
    return try csv(text, hashConfig: hashConfig)
  }

  static func jsonl(_ text: String) throws -> [PortableAccount] {
    var accounts: [PortableAccount] = []
    // Lines split and trimmed as bytes: 10,000 records through String's Character view (and
    // Foundation's trimming) cost more than parsing them.
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A || $0 == 0x0B || $0 == 0x0C }
    for (index, line) in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
      guard let first = line.firstIndex(where: { !isSpace($0) }), let last = line.lastIndex(where: { !isSpace($0) })
      else { continue }
      do {
        accounts.append(try PortableAccount(json: try JSON.parse(bytes: line[first...last])))
      } catch let error as PortableAccountError {
        throw PortableAccountError("line \(index + 1): \(error.message)")
      } catch let error as JSONParseError {
        // Where the parser stopped says more than "not JSON" (a line cut short, a stray comma).
        throw PortableAccountError(
          "line \(index + 1): not valid JSON (\(error.reason) at column \(line.distance(from: line.startIndex, to: first) + error.offset + 1))"
        )
      } catch {
        throw PortableAccountError("line \(index + 1): not a JSON object")
      }
    }
    return accounts
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
    account.disabled = json["disabled"]?.bool
    account.createdAt = try time(json, "createdAt", label: label)
    account.lastSignInAt = try time(
      json, json["lastSignedInAt"] == nil ? "lastLoginAt" : "lastSignedInAt", label: label)
    if let claims = json["customAttributes"]?.string, case .object(let object)? = try? JSON.parse(claims) {
      account.appMetadata = JSONObject([("claims", .object(object))])
    }
    account.providers = (json["providerUserInfo"]?.array ?? []).compactMap { $0["providerId"]?.string }
    account.source = "firebase"
    if let hash = json["passwordHash"]?.string, !hash.isEmpty {
      if let hashConfig {
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
  static let boolColumns: Set<String> = ["email_verified", "disabled"]

  /// The columns authsh's own CSV (`user export --format csv`) may have.
  static let portableColumns: Set<String> = Set(PortableAccount.keys)

  static func csv(_ text: String, hashConfig: FirebaseHashConfig?) throws -> (AccountFileFormat, [PortableAccount]) {
    let records: [CSVRecord]
    do { records = try CSVRows.records(text) } catch { throw PortableAccountError(error.message) }
    guard let first = records.first(where: { !$0.isBlank }) else { return (.csv, []) }
    let rows = records.drop { $0.line <= first.line }.filter { !$0.isBlank }
    if AccountCSVFormats.isFirebaseRow(first.fields) {
      let accounts = try ([first] + rows).map { record in
        do {
          let json = try AccountCSVFormats.firebaseJSON(record.fields)
          return try firebaseAccount(json, index: 0, hashConfig: hashConfig, label: "line \(record.line)")
        } catch let error as PortableAccountError where !error.message.hasPrefix("line ") {
          throw PortableAccountError("line \(record.line): \(error.message)")
        }
      }
      return (.firebaseCSV, accounts)
    }
    let header = first.fields
    if AccountCSVFormats.isAuthUsersHeader(header) {
      var accounts: [PortableAccount] = []
      for record in rows {
        guard record.fields.count == header.count else { throw fieldCount(record, header: header) }
        do {
          if let account = try AccountCSVFormats.authUsersAccount(header, record.fields) { accounts.append(account) }
        } catch let error as PortableAccountError {
          throw PortableAccountError("line \(record.line): \(error.message)")
        }
      }
      return (.authUsers, accounts)
    }
    guard header.contains("email") || header.contains("id"), Set(header).isSubset(of: portableColumns) else {
      let shown = header.prefix(6).joined(separator: ",")
      throw PortableAccountError(
        "line \(first.line): '\(shown.count > 80 ? String(shown.prefix(79)) + "…" : shown)' is no header authsh reads; expected "
          + "authsh's columns (id,email,…, as user export --format csv writes them), the columns of auth.users "
          + "(\\copy … csv header), or firebase-tools' CSV (no header, 28 fields a row)")
    }
    return (.csv, try portableRows(rows, header: header))
  }

  static func fieldCount(_ record: CSVRecord, header: [String]) -> PortableAccountError {
    PortableAccountError(
      "line \(record.line): \(record.fields.count) fields where the header names \(header.count); every row needs exactly the header's fields"
    )
  }

  static func portableRows(_ rows: [CSVRecord], header: [String]) throws -> [PortableAccount] {
    var accounts: [PortableAccount] = []
    for record in rows {
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
        accounts.append(try PortableAccount(json: .object(object)))
      } catch let error as PortableAccountError {
        throw PortableAccountError("line \(record.line): \(error.message)")
      }
    }
    return accounts
  }
}
