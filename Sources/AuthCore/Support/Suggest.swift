/// "Did you mean …?" from edit distance (as hurl and ArgumentParser do).
package enum Suggest {
  /// The closest candidate within a small edit distance, or a unique candidate that starts with the input.
  package static func closest(to input: String, among candidates: [String]) -> String? {
    let lowered = input.lowercased()
    let limit = max(1, min(2, lowered.count / 3 + 1))
    var best: (String, Int)?
    for candidate in candidates {
      let distance = editDistance(lowered, candidate.lowercased())
      if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
    }
    if let best { return best.0 }
    let prefixed = candidates.filter { $0.lowercased().hasPrefix(lowered) }
    return prefixed.count == 1 && !lowered.isEmpty ? prefixed[0] : nil
  }

  /// A suggestion among a short list of choices that the message already lists: only a near
  /// miss (at most one edit in three characters), so `tcsh` is not "corrected" to `bash`.
  package static func choice(for input: String, among choices: [String]) -> String? {
    let lowered = input.lowercased()
    var best: (String, Int)?
    for choice in choices {
      let distance = editDistance(lowered, choice.lowercased())
      if distance * 3 <= max(lowered.count, 1), distance < (best?.1 ?? Int.max) { best = (choice, distance) }
    }
    if let best { return best.0 }
    let prefixed = choices.filter { $0.lowercased().hasPrefix(lowered) }
    return prefixed.count == 1 && !lowered.isEmpty ? prefixed[0] : nil
  }

  /// Levenshtein distance with adjacent transposition counted as one edit.
  package static func editDistance(_ a: String, _ b: String) -> Int {
    let x = Array(a)
    let y = Array(b)
    if x.isEmpty { return y.count }
    if y.isEmpty { return x.count }
    var previous2 = [Int](repeating: 0, count: y.count + 1)
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
      current[0] = i
      for j in 1...y.count {
        let cost = x[i - 1] == y[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[y.count]
  }
}
