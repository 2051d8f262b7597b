import Essentials
import JSONKit

/// The outcome of one predicate on one value.
struct PredicateOutcome {
  var passed: Bool
  /// Why it could not be judged (wrong types, no value): fails even under `not`.
  var problem: String?
}

/// Hurl's predicate vocabulary with typed values: `"42"` is not `42`, numbers compare across int
/// and double, `<`… work on numbers or on strings (ISO dates sort as text).
enum AssertionEvaluator {
  static func evaluate(_ predicate: Predicate, negated: Bool, actual: JSON?, expected: JSON?) -> PredicateOutcome {
    if predicate == .exists {
      let present = actual.map { !$0.isNull } ?? false
      return PredicateOutcome(passed: present != negated)
    }
    guard let actual else { return PredicateOutcome(passed: false, problem: "no value") }
    let raw = holds(predicate, actual: actual, expected: expected ?? .null)
    switch raw {
    case .success(let passed): return PredicateOutcome(passed: passed != negated)
    case .failure(let problem): return PredicateOutcome(passed: false, problem: problem.message)
    }
  }

  struct TypeProblem: Error {
    var message: String
  }

  static func holds(_ predicate: Predicate, actual: JSON, expected: JSON) -> Result<Bool, TypeProblem> {
    switch predicate {
    case .equal: return .success(actual == expected)
    case .notEqual: return .success(actual != expected)
    case .less, .lessOrEqual, .greater, .greaterOrEqual:
      guard let order = compare(actual, expected) else {
        return .failure(TypeProblem(message: "cannot compare \(actual.typeName) with \(expected.typeName)"))
      }
      switch predicate {
      case .less: return .success(order == .orderedAscending)
      case .lessOrEqual: return .success(order != .orderedDescending)
      case .greater: return .success(order == .orderedDescending)
      default: return .success(order != .orderedAscending)
      }
    case .contains:
      switch (actual, expected) {
      case (.string(let text), .string(let part)): return .success(text.contains(part))
      case (.array(let items), _): return .success(items.contains(expected))
      case (.object(let object), .string(let key)): return .success(object[key] != nil)
      default:
        return .failure(
          TypeProblem(message: "'contains' needs a string, an array or an object, not \(actual.typeName)"))
      }
    case .startsWith, .endsWith:
      guard case .string(let text) = actual, case .string(let part) = expected else {
        return .failure(
          TypeProblem(
            message: "'\(predicate.rawValue)' compares strings, not \(actual.typeName) and \(expected.typeName)"))
      }
      return .success(predicate == .startsWith ? text.hasPrefix(part) : text.hasSuffix(part))
    case .matches:
      guard case .string(let text) = actual, case .string(let pattern) = expected else {
        return .failure(TypeProblem(message: "'matches' needs a string value and a string pattern"))
      }
      guard let regex = ScriptRegex.compile(pattern) else {
        return .failure(TypeProblem(message: "invalid regular expression"))
      }
      guard let matched = ScriptRegex.matches(regex, in: text) else {
        return .failure(
          TypeProblem(
            message: "the pattern had not finished matching after \(Int(ScriptRegex.matchSeconds)) s"
              + " (nested quantifiers such as (a+)+ backtrack exponentially); simplify it"))
      }
      return .success(matched)
    case .isEmpty:
      switch actual {
      case .string(let text): return .success(text.isEmpty)
      case .array(let items): return .success(items.isEmpty)
      case .object(let object): return .success(object.isEmpty)
      default:
        return .failure(TypeProblem(message: "'isEmpty' needs a string, an array or an object, not \(actual.typeName)"))
      }
    case .exists:
      return .success(!actual.isNull)
    }
  }

  static func compare(_ a: JSON, _ b: JSON) -> ComparisonResult? {
    if case .string(let x) = a, case .string(let y) = b {
      return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
    }
    guard let x = a.double, let y = b.double else { return nil }
    return x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
  }

  /// `expected:` text for a failure (`greater than number <0>`, `not string <x>`).
  static func describeExpectation(_ predicate: Predicate, negated: Bool, expected: JSON?) -> String {
    let value = Values.typed(expected)
    let text: String
    switch predicate {
    case .equal: text = value
    case .notEqual: text = "anything but " + value
    case .less: text = "less than " + value
    case .lessOrEqual: text = "less than or equal to " + value
    case .greater: text = "greater than " + value
    case .greaterOrEqual: text = "greater than or equal to " + value
    case .contains: text = "contains " + value
    case .startsWith: text = "starts with " + value
    case .endsWith: text = "ends with " + value
    case .matches: text = "matches " + value
    case .exists: text = "a value"
    case .isEmpty: text = "empty"
    }
    return negated ? "not " + text : text
  }
}
