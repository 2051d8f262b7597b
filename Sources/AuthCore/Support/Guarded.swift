import Synchronization

/// A value behind the package's one lock type (`Mutex`), read and written by key path.
///
/// Inlinable: every step of a script goes through a few of these, and a call the compiler can
/// specialise costs no generic metadata lookup at run time.
package final class Guarded<Value: Sendable>: Sendable {
  @usableFromInline let mutex: Mutex<Value>

  package init(_ value: Value) { mutex = Mutex(value) }

  @inlinable
  package subscript<T: Sendable>(_ keyPath: WritableKeyPath<Value, T>) -> T {
    get { mutex.withLock { $0[keyPath: keyPath] } }
    set { mutex.withLock { $0[keyPath: keyPath] = newValue } }
  }

  @inlinable
  package func update<T: Sendable, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
    try mutex.withLock { value throws(E) in try body(&value) }
  }
}
