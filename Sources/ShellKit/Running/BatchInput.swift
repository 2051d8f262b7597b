import AuthCore
import JSONKit

/// One account named in `--from FILE`: the text as given, or why the line names none.
public struct BatchEntry: Sendable, Equatable {
  public var input: String
  /// Why this line is not an address or id (it is reported, the rest go on).
  public var problem: String?

  public init(input: String, problem: String? = nil) {
    self.input = input
    self.problem = problem
  }
}

/// The accounts of a bulk change, read from the arguments and `--from FILE` through the same
/// streamed, line-capped reader as `user show` (`LookupInput`). Three shapes, told by the first
/// line that is not blank or a comment: JSON lines (a `--report` file; `input`, else `email`, else
/// `id`; with `onlyFailed` just the lines whose `outcome` is `failed`), CSV (a header with an `email`
/// or `id` column) or one address or id per line.
public enum BatchInput {
  /// More accounts than this in one batch is a usage error: split the file.
  public static let maximumEntries = 1_000_000

  static func read(_ input: LookupInput, onlyFailed: Bool) throws -> [BatchEntry] {
    var entries: [BatchEntry] = []
    var shape: Shape?
    var reportLines = 0
    while let line = try input.next() {
      if shape == nil {
        let first = Shape(firstLine: line)
        shape = first
        // A CSV header names the columns, not an account.
        if case .csv = first { continue }
      }
      switch shape {
      case .report?:
        reportLines += 1
        guard let entry = reportEntry(line, onlyFailed: onlyFailed) else { continue }
        entries.append(entry)
      case .csv(let column)?:
        let cells = CSVLine.split(line)
        let value = column < cells.count ? cells[column].trimmingWhitespace : ""
        entries.append(entry(value.isEmpty ? line : value))
      case .lines?, nil:
        entries.append(entry(line))
      }
      if entries.count > maximumEntries {
        throw AuthError(.usage, message: "\(input.name) names more than \(maximumEntries) accounts: split it into smaller batches.")
      }
    }
    if onlyFailed, shape.map({ if case .report = $0 { return false } else { return true } }) ?? false {
      throw AuthError(.usage, message: "--only-failed reads a --report file (JSON lines); \(input.name) is not one.")
    }
    return entries
  }

  /// An address or id, or the reason the text is neither.
  public static func entry(_ text: String) -> BatchEntry {
    let value = text.trimmingWhitespace
    if value.contains("@") {
      return Validator.isValidEmail(value)
        ? BatchEntry(input: value) : BatchEntry(input: value, problem: "'\(shown(value))' is not an e-mail address.")
    }
    let idCharacters = value.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.:".unicodeScalars.contains($0)) }
    guard !value.isEmpty, value.count <= 128, idCharacters else {
      return BatchEntry(input: value, problem: "'\(shown(value))' is not an e-mail address or a user id.")
    }
    return BatchEntry(input: value)
  }

  private static func shown(_ text: String) -> String { text.count > 60 ? String(text.prefix(59)) + "…" : text }

  private static func reportEntry(_ line: String, onlyFailed: Bool) -> BatchEntry? {
    guard let json = try? JSON.parse(line), let object = json.object else {
      return BatchEntry(input: line, problem: "'\(shown(line))' is not a JSON line of a report.")
    }
    if onlyFailed, object["outcome"]?.string != BatchOutcome.failed.rawValue { return nil }
    guard let text = object["input"]?.string ?? object["email"]?.string ?? object["id"]?.string else {
      return BatchEntry(input: line, problem: "'\(shown(line))' has no input, email or id.")
    }
    return entry(text)
  }

  enum Shape: Equatable {
    case lines
    case csv(column: Int)
    case report

    init(firstLine: String) {
      if firstLine.hasPrefix("{") {
        self = .report
        return
      }
      let names = CSVLine.split(firstLine).map { $0.trimmingWhitespace.lowercased() }
      if let column = names.firstIndex(of: "email") ?? names.firstIndex(of: "id") {
        self = .csv(column: column)
      } else {
        self = .lines
      }
    }
  }
}

/// The fields of one CSV line (RFC 4180 quotes; a field may not span lines).
enum CSVLine {
  static func split(_ line: String) -> [String] {
    var fields: [String] = []
    var field = ""
    var quoted = false
    var characters = line.makeIterator()
    while let character = characters.next() {
      if quoted {
        if character == "\"" {
          // `""` inside quotes is one quote.
          if let following = characters.next() {
            if following == "\"" {
              field.append("\"")
            } else {
              quoted = false
              if following == "," {
                fields.append(field)
                field = ""
              } else {
                field.append(following)
              }
            }
          } else {
            quoted = false
          }
        } else {
          field.append(character)
        }
      } else if character == "\"" && field.isEmpty {
        quoted = true
      } else if character == "," {
        fields.append(field)
        field = ""
      } else {
        field.append(character)
      }
    }
    fields.append(field)
    return fields
  }
}
