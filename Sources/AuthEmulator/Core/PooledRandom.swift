import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The kernel's CSPRNG, drawn 4 KiB at a time. `SystemRandomNumberGenerator` makes one `getrandom`
/// call per 64-bit draw: an id of 28 characters made 28 system calls, a UUID two. The bytes are the
/// kernel's all the same, handed out once each.
struct PooledRandom: RandomNumberGenerator {
  private static let poolSize = 4096
  private static let pool = Mutex<(bytes: [UInt8], next: Int)>(([], poolSize))

  mutating func next() -> UInt64 {
    var word: UInt64 = 0
    Self.fill(&word)
    return word
  }

  /// `count` random bytes.
  static func bytes(_ count: Int) -> [UInt8] {
    var result = [UInt8](repeating: 0, count: count)
    result.withUnsafeMutableBytes { fill($0) }
    return result
  }

  private static func fill<T>(_ value: inout T) {
    withUnsafeMutableBytes(of: &value) { fill($0) }
  }

  private static func fill(_ target: UnsafeMutableRawBufferPointer) {
    var filled = 0
    while filled < target.count {
      pool.withLock { pool in
        if pool.next >= poolSize {
          pool.bytes = refill()
          pool.next = 0
        }
        let take = min(target.count - filled, poolSize - pool.next)
        for offset in 0..<take { target[filled + offset] = pool.bytes[pool.next + offset] }
        pool.next += take
        filled += take
      }
    }
  }

  private static func refill() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: poolSize)
    // One getrandom(2) for the whole pool (glibc's arc4random_buf; BSD's on Darwin).
    bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, poolSize) }
    return bytes
  }
}
