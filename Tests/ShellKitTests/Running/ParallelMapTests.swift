import AuthCore
import Foundation
import Testing

@testable import ShellKit

@Suite("user import: records made accounts on every core, in order")
struct ParallelMapTests {
  @Test func theResultIsTheSequentialMapWhateverTheSize() throws {
    for count in [0, 1, 127, 128, 300, 1_023, 1_024, 10_001] {
      let items = Array(0..<count)
      #expect(try ParallelMap.map(items) { $0 * 3 + 1 } == items.map { $0 * 3 + 1 })
    }
  }

  /// What is done meanwhile (an import reads and visits there) runs once, whatever the size, while
  /// the caller waits; its error comes out once every item is mapped.
  @Test func meanwhileRunsOnceAndItsErrorComesOut() throws {
    struct Refused: Error {}
    for count in [0, 5, 300, 10_001] {
      let items = Array(0..<count)
      var runs = 0
      let mapped = try ParallelMap.map(items, meanwhile: { runs += 1 }) { $0 &* 7 }
      #expect(runs == 1)
      #expect(mapped == items.map { $0 &* 7 })
      #expect(throws: Refused.self) { try ParallelMap.map(items, meanwhile: { throw Refused() }) { $0 } }
    }
  }

  /// Called from every thread of a busy cooperative pool at once (tests and a shell's tasks run
  /// there), the map never waits for a thread that cannot start: each call finishes.
  @Test func callsFromEveryPoolThreadAtOnceAllFinish() async throws {
    let items = Array(0..<5_000)
    try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<32 {
        group.addTask { try ParallelMap.map(items, meanwhile: {}) { $0 + 1 } == items.map { $0 + 1 } }
      }
      for try await same in group { #expect(same) }
    }
  }

  /// Pass 1 reads, makes and visits in a pipeline: every record of generated files (sizes about
  /// the batch, a bad record anywhere) is visited once, in file order, batch by batch up to the
  /// batch of the first bad record, which is the one named.
  @Test func passOneVisitsEveryRecordOnceInOrderUpToTheFirstBadOne() async throws {
    var generator = SystemRandomNumberGenerator()
    for count in [0, 1, 1_023, 1_024, 1_025, 2_049, 5_000] {
      let bad = count > 0 && Bool.random(using: &generator) ? Int.random(in: 0..<count, using: &generator) : nil
      let lines = (0..<count).map { index in
        index == bad ? #"{"id":"u\#(index)","email":}"# : #"{"id":"u\#(index)","email":"u\#(index)@example.com"}"#
      }
      let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "authsh-pass1-\(UUID().uuidString).jsonl"
      )
      .path
      defer { try? FileManager.default.removeItem(atPath: path) }
      _ = FileManager.default.createFile(atPath: path, contents: Data(lines.map { $0 + "\n" }.joined().utf8))
      let file = try AccountFile(
        path: path, name: path, hashConfig: nil, SupportHarness().context)
      var visited: [String] = []
      do {
        _ = try file.read({ _ in 0 }) { account, _ in visited.append(account.id ?? "") }
        #expect(bad == nil, "\(count)")
      } catch let error as AuthError {
        #expect(bad != nil && error.message.contains("line \(bad! + 1)"), "\(error.message)")
      }
      let whole = bad.map { $0 / AccountFile.readBatch * AccountFile.readBatch } ?? count
      #expect(visited == (0..<whole).map { "u\($0)" }, "\(count) \(String(describing: bad))")
    }
  }

  @Test func theFirstBadRecordInFileOrderIsTheOneNamed() async throws {
    // Two bad elements in one batch of records (made accounts in parallel): the earlier is named.
    var elements = (0..<3_000).map { #"{"localId":"u\#($0)","email":"u\#($0)@example.com"}"# }
    elements[700] = #"{"localId":"u700","email":}"#
    elements[2_500] = #"{"localId":"u2500","email":}"#
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-order-\(UUID().uuidString).json")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    _ = FileManager.default.createFile(
      atPath: path, contents: Data(("{\"users\": [\n" + elements.joined(separator: ",\n") + "\n]}\n").utf8))
    let result = try await SupportHarness().run("user import \(path) --dry-run")
    #expect(result.error?.code == .invalidFile)
    #expect(result.error?.message.contains("users[700] (near line 702)") == true, "\(String(describing: result.error))")
  }
}
