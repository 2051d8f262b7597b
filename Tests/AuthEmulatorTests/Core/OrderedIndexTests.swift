import AuthTestSupport
import Testing

@testable import AuthEmulator

@Suite("OrderedIndex")
struct OrderedIndexTests {
  /// Random inserts and removes (small chunks, so chunks split and empty often), checked after
  /// each step against a sorted array.
  @Test func agreesWithASortedArrayUnderRandomEdits() {
    var generator = SplitMix64(seed: 42)
    var index = OrderedIndex<Int>(chunkSize: 4)
    var model = Set<Int>()
    for step in 0..<3_000 {
      let key = Int(generator.next() % 400)
      if generator.next() % 3 == 0 {
        index.remove(key)
        model.remove(key)
      } else {
        index.insert(key)
        model.insert(key)
      }
      let sorted = model.sorted()
      #expect(index.count == sorted.count)
      if step % 97 == 0 || step == 2_999 {
        #expect(index.ascending(offset: 0, limit: .max) == sorted)
        #expect(index.descending(offset: 0, limit: .max) == sorted.reversed())
        for offset in [0, 1, 5, sorted.count / 2, sorted.count - 1, sorted.count, sorted.count + 3] {
          #expect(index.ascending(offset: offset, limit: 7) == Array(sorted.dropFirst(offset).prefix(7)))
          #expect(index.descending(offset: offset, limit: 7) == Array(sorted.reversed().dropFirst(offset).prefix(7)))
        }
        for lower in [-1, 0, 57, 200, 399, 400] {
          #expect(index.keys(from: lower, limit: 5) == Array(sorted.filter { $0 >= lower }.prefix(5)))
          #expect(index.keys(from: lower, inclusive: false, limit: 5) == Array(sorted.filter { $0 > lower }.prefix(5)))
          #expect(
            index.keys(from: lower, while: { $0 < lower + 30 }) == sorted.filter { $0 >= lower && $0 < lower + 30 })
          #expect(index.first(atLeast: lower) == sorted.first { $0 >= lower })
          #expect(index.contains(lower) == model.contains(lower))
        }
      }
    }
  }

  @Test func emptyIndexAnswersNothing() {
    let index = OrderedIndex<String>()
    #expect(index.isEmpty)
    #expect(index.ascending(offset: 0, limit: 10).isEmpty)
    #expect(index.descending(offset: 0, limit: 10).isEmpty)
    #expect(index.keys(from: "a").isEmpty)
    #expect(index.first(atLeast: "") == nil)
  }
}
