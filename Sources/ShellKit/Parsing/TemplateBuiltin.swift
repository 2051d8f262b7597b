import Foundation

/// The values `{{…}}` names without a definition: `{{uuid}}`, `{{timestamp}}`, `{{random}}`. The
/// one list the scripts' checker, their runner, the shell's completion and the manual read.
package enum TemplateBuiltin: String, CaseIterable, Sendable {
  case uuid, timestamp, random

  package static let names = allCases.map(\.rawValue)

  /// A builtin's value: a string or an integer.
  package enum Value: Sendable, Equatable {
    case text(String)
    case integer(Int)
  }

  /// Its value now: a fresh lowercase UUID, the Unix time in seconds, a number below 10⁹.
  package func value(now: Int) -> Value {
    switch self {
    case .uuid: return .text(UUID().uuidString.lowercased())
    case .timestamp: return .integer(now)
    case .random: return .integer(Int.random(in: 0..<1_000_000_000))
    }
  }

  /// "{{uuid}}, {{timestamp}} and {{random}}", for the manual.
  package static var listed: String {
    let holes = names.map { "{{\($0)}}" }
    return holes.dropLast().joined(separator: ", ") + " and " + (holes.last ?? "")
  }
}
