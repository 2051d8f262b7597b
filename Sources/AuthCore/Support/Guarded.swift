import Synchronization

/// A value behind the package's one lock type (`Mutex`), read and written by key path.
public final class Guarded<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  public init(_ value: Value) { mutex = Mutex(value) }

  public subscript<T: Sendable>(_ keyPath: WritableKeyPath<Value, T>) -> T {
    get { mutex.withLock { $0[keyPath: keyPath] } }
    set { mutex.withLock { $0[keyPath: keyPath] = newValue } }
  }

  public func update<T: Sendable, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
    try mutex.withLock { value throws(E) in try body(&value) }
  }
}
