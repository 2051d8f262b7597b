import Essentials

/// A path with parameters, as a route table declares it: `/factors/{factorId}/challenge`,
/// `/v1/projects/{projectId}:queryAccounts`, `/v2/accounts/*`. A `{name}` segment matches one
/// non-empty segment (optionally followed by a literal `:suffix` in the same segment); a final `*`
/// matches whatever is left, nothing included.
struct RoutePattern: Sendable, Hashable, CustomStringConvertible {
  private enum Segment: Sendable, Hashable {
    case literal(String)
    case parameter(name: String, suffix: String)
    case rest
  }

  let description: String
  private let segments: [Segment]

  init(_ pattern: String) {
    description = pattern
    segments = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
      if part == "*" { return .rest }
      guard part.hasPrefix("{"), let close = part.firstIndex(of: "}") else { return .literal(String(part)) }
      let name = part[part.index(after: part.startIndex)..<close]
      return .parameter(name: String(name), suffix: String(part[part.index(after: close)...]))
    }
  }

  /// The parameter names, in order.
  var parameterNames: [String] {
    segments.compactMap { segment in
      if case .parameter(let name, _) = segment { return name }
      return nil
    }
  }

  /// The parameters when `path` matches (raw, as the path spells them), else nil.
  func match(_ path: String) -> [String: String]? {
    guard path.hasPrefix("/") else { return nil }
    return match(segments: Self.segments(of: path))
  }

  /// A path's segments after the leading `/` (split once for a whole table).
  static func segments(of path: String) -> ArraySlice<Substring> {
    path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
  }

  func match(segments parts: ArraySlice<Substring>) -> [String: String]? {
    var parameters: [String: String] = [:]
    var index = parts.startIndex
    for segment in segments {
      switch segment {
      case .rest:
        return parameters
      case .literal(let text):
        guard index < parts.endIndex, parts[index] == text else { return nil }
      case .parameter(let name, let suffix):
        guard index < parts.endIndex else { return nil }
        let part = parts[index]
        if suffix.isEmpty {
          guard !part.isEmpty else { return nil }
          parameters[name] = String(part)
        } else {
          guard part.hasSuffix(suffix), part.count > suffix.count else { return nil }
          let value = part.dropLast(suffix.count)
          guard !value.contains(":") else { return nil }
          parameters[name] = String(value)
        }
      }
      index += 1
    }
    return index == parts.endIndex ? parameters : nil
  }

  /// The OpenAPI spelling: `*` becomes `{path}`.
  var openAPIPath: String { description.replacingAll("/*", with: "/{path}") }
}

/// What a route table says about one request: the route and its parameters, a known path asked
/// with another method (and the methods it has), or an unknown path.
enum RouteResolution<Route> {
  case found(Route, parameters: [String: String])
  case otherMethod(allowed: [String])
  case notFound
}

/// A list of routes, first match wins; "*" as a method matches every method of a path that no
/// earlier route has.
protocol RouteDeclaration: Sendable {
  var method: String { get }
  var pattern: RoutePattern { get }
}

extension Array where Element: RouteDeclaration {
  func resolve(method: String, path: String) -> RouteResolution<Element> {
    guard path.hasPrefix("/") else { return .notFound }
    let segments = RoutePattern.segments(of: path)
    var allowed: [String] = []
    for route in self {
      guard let parameters = route.pattern.match(segments: segments) else { continue }
      // A "*" route is a fallback for paths no route before it has (another method stays 404/405).
      if route.method == "*" && !allowed.isEmpty { continue }
      if route.method == method || route.method == "*" { return .found(route, parameters: parameters) }
      if !allowed.contains(route.method) { allowed.append(route.method) }
    }
    return allowed.isEmpty ? .notFound : .otherMethod(allowed: allowed)
  }

  /// (method, pattern) pairs declared more than once: a table must have none.
  var duplicates: [String] {
    var seen: Set<String> = []
    var twice: [String] = []
    for route in self {
      let key = "\(route.method) \(route.pattern)"
      if !seen.insert(key).inserted { twice.append(key) }
    }
    return twice
  }
}
