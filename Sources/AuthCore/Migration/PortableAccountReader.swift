import Essentials
import JSONKit

/// The account files `user import` reads, told apart by their content: the portable JSONL record
/// (one object per line), Firebase's `auth:import` JSON (`{"users":[…]}`, `--format firebase`),
/// or CSV with a header row (`--format csv`, nested fields as JSON text).
public enum AccountFileFormat: String, Sendable, Equatable {
  case jsonl, firebase, csv
}

public enum PortableAccountReader {
  /// Reads every account of `text`. `hashConfig` turns the Firebase format's `passwordHash` and
  /// `salt` into `$fbscrypt$` strings; without it those accounts have no hash and a note why.
  public static func read(_ text: String, hashConfig: FirebaseHashConfig? = nil) throws -> (AccountFileFormat, [PortableAccount]) {
    // A byte-order mark (what some Windows editors save) is not content: with it, JSON read as CSV.
    let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    let trimmed = text.drop { $0.isWhitespace }
    if trimmed.hasPrefix("{"), let whole = try? JSON.parse(String(trimmed)), let users = whole["users"] {
      guard let users = users.array else { throw PortableAccountError("\"users\" is not a list of accounts") }
      return (.firebase, try users.enumerated().map { try firebaseAccount($0.element, index: $0.offset, hashConfig: hashConfig) })
    }
    if trimmed.hasPrefix("{") { return (.jsonl, try jsonl(text)) }
    if trimmed.isEmpty { return (.jsonl, []) }
    return (.csv, try csv(text))
  }

  static func jsonl(_ text: String) throws -> [PortableAccount] {
    var accounts: [PortableAccount] = []
    // Lines split and trimmed as bytes: 10,000 records through String's Character view (and
    // Foundation's trimming) cost more than parsing them.
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A || $0 == 0x0B || $0 == 0x0C }
    for (index, line) in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
      guard let first = line.firstIndex(where: { !isSpace($0) }), let last = line.lastIndex(where: { !isSpace($0) }) else { continue }
      do {
        accounts.append(try PortableAccount(json: try JSON.parse(bytes: line[first...last])))
      } catch let error as PortableAccountError {
        throw PortableAccountError("line \(index + 1): \(error.message)")
      } catch let error as JSONParseError {
        // Where the parser stopped says more than "not JSON" (a line cut short, a stray comma).
        throw PortableAccountError("line \(index + 1): not valid JSON (\(error.reason) at column \(line.distance(from: line.startIndex, to: first) + error.offset + 1))")
      } catch {
        throw PortableAccountError("line \(index + 1): not a JSON object")
      }
    }
    return accounts
  }

  // MARK: - Firebase's auth:import JSON

  static func firebaseAccount(_ json: JSON, index: Int, hashConfig: FirebaseHashConfig?) throws -> PortableAccount {
    guard json.object != nil else { throw PortableAccountError("users[\(index)] is not an object") }
    var account = PortableAccount(id: json["localId"]?.string, email: json["email"]?.string)
    account.emailVerified = json["emailVerified"]?.bool
    account.displayName = json["displayName"]?.string
    account.phone = json["phoneNumber"]?.string
    account.disabled = json["disabled"]?.bool
    account.createdAt = try time(json, "createdAt", index: index)
    account.lastSignInAt = try time(json, json["lastSignedInAt"] == nil ? "lastLoginAt" : "lastSignedInAt", index: index)
    if let claims = json["customAttributes"]?.string, case .object(let object)? = try? JSON.parse(claims) {
      account.appMetadata = JSONObject([("claims", .object(object))])
    }
    account.providers = (json["providerUserInfo"]?.array ?? []).compactMap { $0["providerId"]?.string }
    account.source = "firebase"
    if let hash = json["passwordHash"]?.string, !hash.isEmpty {
      if let hashConfig {
        account.passwordHash = PasswordHashString.firebaseScrypt(hashConfig, salt: json["salt"]?.string ?? "", hash: hash)
        if account.passwordHash == nil { throw PortableAccountError("users[\(index)]: passwordHash or salt is not base64") }
      } else {
        account.passwordNote = "the Firebase format has no hash parameters; give --hash-config FILE"
      }
    }
    return account
  }

  /// A time in milliseconds (a number or its digits) as RFC 3339 text; one before 1970 or after
  /// 9999 is a corrupt file, not a time to send on.
  static func time(_ json: JSON, _ field: String, index: Int) throws -> String? {
    guard let value = json[field], let milliseconds = value.int ?? value.string.flatMap({ Int($0) }) else { return nil }
    guard milliseconds >= 0, UnixTime.isPlausible(milliseconds / 1000) else {
      throw PortableAccountError("users[\(index)]: \(field) \(milliseconds) is not a time between 1970 and 9999 (milliseconds)")
    }
    return CivilTime.iso8601(milliseconds: milliseconds)
  }

  // MARK: - CSV

  /// Columns whose cells are JSON text (objects and lists).
  static let jsonColumns: Set<String> = ["user_metadata", "app_metadata", "providers", "identities", "factors"]
  static let boolColumns: Set<String> = ["email_verified", "disabled"]

  static func csv(_ text: String) throws -> [PortableAccount] {
    let records: [CSVRecord]
    do { records = try CSVRows.records(text) } catch { throw PortableAccountError(error.message) }
    guard let header = records.first?.fields else { return [] }
    var accounts: [PortableAccount] = []
    for record in records.dropFirst() where !record.isBlank {
      let row = record.fields
      // A row with a field too few or too many would shift every column after the gap.
      guard row.count == header.count else {
        throw PortableAccountError(
          "line \(record.line): \(row.count) fields where the header names \(header.count); every row needs exactly the header's fields")
      }
      var object = JSONObject()
      for (column, cell) in zip(header, row) where !cell.isEmpty {
        if jsonColumns.contains(column) {
          guard let value = try? JSON.parse(cell) else { throw PortableAccountError("line \(record.line): \(column) is not JSON") }
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
