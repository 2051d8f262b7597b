/// Values worked out once per key and kept, up to `limit` keys (past that it starts afresh): for
/// the few URLs a shell or a script uses again on every command.
package final class Memo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  // Inlinable, so each user's copy is specialised for its key and value: the generic one looked
  // up the metadata of `Value?` on every call.
  @usableFromInline let values = Guarded<[Key: Value]>([:])
  @usableFromInline let limit: Int

  package init(limit: Int = 64) { self.limit = limit }

  /// The value kept for `key`, else `make`'s, which is kept.
  @inlinable package func value(for key: Key, _ make: () -> Value) -> Value {
    if let known = values.update({ $0[key] }) { return known }
    let value = make()
    values.update { values in
      if values.count >= limit { values.removeAll() }
      values[key] = value
    }
    return value
  }
}
