import AuthCore
import Foundation
import Testing

@testable import ShellKit

@Suite("user import: records made accounts on every core, in order")
struct ParallelMapTests {
  @Test func theResultIsTheSequentialMapWhateverTheSize() {
    for count in [0, 1, 127, 128, 300, 10_001] {
      let items = Array(0..<count)
      #expect(ParallelMap.map(items) { $0 * 3 + 1 } == items.map { $0 * 3 + 1 })
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
