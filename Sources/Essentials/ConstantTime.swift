/// Comparisons of secrets (codes, tokens, password hashes) that look at every byte whatever the
/// first difference, so the time taken says nothing about how much of a guess was right.
package enum ConstantTime {
  package static func equal<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
  }

  package static func equal(_ a: String, _ b: String) -> Bool { equal(Array(a.utf8), Array(b.utf8)) }
}
