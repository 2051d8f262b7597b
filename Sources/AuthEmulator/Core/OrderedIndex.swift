/// An ordered set of keys, as a database index keeps them: kept sorted on insert and remove, so a
/// page of a listing costs a binary search plus the page, never a sort of every account.
///
/// Stored as sorted chunks of at most `2 × chunkSize` keys: an insert or remove moves at most one
/// chunk's keys, and finding the n-th key walks the chunk counts (a few hundred at 100,000 keys).
struct OrderedIndex<Key: Comparable & Sendable>: Sendable {
  private var chunks: [[Key]] = []
  private(set) var count = 0
  private let chunkSize: Int

  init(chunkSize: Int = 512) { self.chunkSize = max(chunkSize, 2) }

  var isEmpty: Bool { count == 0 }

  /// Adds `key` (no-op when present).
  mutating func insert(_ key: Key) {
    guard !chunks.isEmpty else {
      chunks = [[key]]
      count = 1
      return
    }
    let chunk = min(chunkIndex(atLeast: key), chunks.count - 1)
    let slot = Self.lowerBound(chunks[chunk], key)
    if slot < chunks[chunk].count, chunks[chunk][slot] == key { return }
    chunks[chunk].insert(key, at: slot)
    count += 1
    if chunks[chunk].count > 2 * chunkSize {
      let upper = Array(chunks[chunk][chunkSize...])
      chunks[chunk].removeSubrange(chunkSize...)
      chunks.insert(upper, at: chunk + 1)
    }
  }

  /// Removes `key` (no-op when absent).
  mutating func remove(_ key: Key) {
    let chunk = chunkIndex(atLeast: key)
    guard chunk < chunks.count else { return }
    let slot = Self.lowerBound(chunks[chunk], key)
    guard slot < chunks[chunk].count, chunks[chunk][slot] == key else { return }
    chunks[chunk].remove(at: slot)
    count -= 1
    if chunks[chunk].isEmpty { chunks.remove(at: chunk) }
  }

  func contains(_ key: Key) -> Bool {
    let chunk = chunkIndex(atLeast: key)
    guard chunk < chunks.count else { return false }
    let slot = Self.lowerBound(chunks[chunk], key)
    return slot < chunks[chunk].count && chunks[chunk][slot] == key
  }

  /// Up to `limit` keys in ascending order, skipping the first `offset`.
  func ascending(offset: Int, limit: Int) -> [Key] {
    guard offset >= 0, offset < count, limit > 0 else { return [] }
    var skip = offset
    var result: [Key] = []
    result.reserveCapacity(min(limit, count - offset))
    for chunk in chunks {
      if skip >= chunk.count {
        skip -= chunk.count
        continue
      }
      for key in chunk[skip...] {
        result.append(key)
        if result.count == limit { return result }
      }
      skip = 0
    }
    return result
  }

  /// Up to `limit` keys in descending order, skipping the last `offset`.
  func descending(offset: Int, limit: Int) -> [Key] {
    guard offset >= 0, offset < count, limit > 0 else { return [] }
    var skip = offset
    var result: [Key] = []
    result.reserveCapacity(min(limit, count - offset))
    for chunk in chunks.reversed() {
      if skip >= chunk.count {
        skip -= chunk.count
        continue
      }
      for key in chunk.reversed().dropFirst(skip) {
        result.append(key)
        if result.count == limit { return result }
      }
      skip = 0
    }
    return result
  }

  /// Keys `>= lower` (or `> lower` when `inclusive` is false) in ascending order, while `accept`
  /// holds and at most `limit` of them (nil: no limit).
  func keys(from lower: Key, inclusive: Bool = true, limit: Int? = nil, while accept: (Key) -> Bool = { _ in true })
    -> [Key]
  {
    var result: [Key] = []
    if let limit, limit <= 0 { return result }
    var chunk = chunkIndex(atLeast: lower)
    guard chunk < chunks.count else { return result }
    var slot = Self.lowerBound(chunks[chunk], lower)
    while chunk < chunks.count {
      let keys = chunks[chunk]
      while slot < keys.count {
        let key = keys[slot]
        slot += 1
        if !inclusive && key == lower { continue }
        guard accept(key) else { return result }
        result.append(key)
        if let limit, result.count >= limit { return result }
      }
      chunk += 1
      slot = 0
    }
    return result
  }

  /// The first key `>= lower`, if any.
  func first(atLeast lower: Key) -> Key? {
    let chunk = chunkIndex(atLeast: lower)
    guard chunk < chunks.count else { return nil }
    let slot = Self.lowerBound(chunks[chunk], lower)
    return slot < chunks[chunk].count ? chunks[chunk][slot] : nil
  }

  /// The first chunk whose last key is `>= key` (`chunks.count` when none).
  private func chunkIndex(atLeast key: Key) -> Int {
    var low = 0
    var high = chunks.count
    while low < high {
      let middle = low + (high - low) / 2
      if let last = chunks[middle].last, last < key { low = middle + 1 } else { high = middle }
    }
    return low
  }

  private static func lowerBound(_ keys: [Key], _ key: Key) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = low + (high - low) / 2
      if keys[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
