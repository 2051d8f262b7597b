/// A value held once and shared by its copies until one of them changes it (copy on write): a
/// record of many strings handed through several stages costs one reference a copy, not one per
/// string. Inlinable, so that each use is specialized for its value (an unspecialized generic
/// access costs more than the copies it saves).
package struct Shared<Value: Sendable & Equatable>: Sendable, Equatable {
  @usableFromInline final class Box: @unchecked Sendable {
    // Changed only through `value`'s `_modify`, when no other copy shares the box; so no access
    // can overlap another, and the runtime's check of each one (a tenth of an import) is left out.
    @usableFromInline @exclusivity(unchecked) var value: Value
    @inlinable init(_ value: Value) { self.value = value }
  }

  @usableFromInline var box: Box

  @inlinable package init(_ value: Value) { box = Box(value) }

  @inlinable package var value: Value {
    // Borrowed in place: reading one field copies only that field, not the whole value.
    _read { yield box.value }
    _modify {
      if !isKnownUniquelyReferenced(&box) { box = Box(box.value) }
      yield &box.value
    }
  }

  @inlinable package static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box === rhs.box || lhs.box.value == rhs.box.value
  }
}
