import AuthCore

extension Guarded where Value == Int {
  /// The count before this call, then one more: a fixture route answering its n-th call (0 first).
  package func next() -> Int {
    update { count in
      defer { count += 1 }
      return count
    }
  }
}
