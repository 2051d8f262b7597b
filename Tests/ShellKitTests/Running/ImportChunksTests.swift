import Foundation
import Testing

@testable import ShellKit

/// `user import` sends a second chunk while one is still out only when `--jobs` has room for both:
/// requests at a time never exceed `--jobs`, for every value it takes and both kinds of backend.
@Suite struct ImportChunksTests {
  @Test(arguments: [1, 2, 1_000]) func requestsAtATimeStayWithinJobs(accountsPerRequest: Int) {
    let requestsPerChunk = (CommandRunner.importChunk + accountsPerRequest - 1) / accountsPerRequest
    for jobs in 1...64 {
      let chunks = CommandRunner.chunksInFlight(jobs: jobs, accountsPerRequest: accountsPerRequest)
      #expect(chunks >= 1)
      // One chunk's importer keeps its own requests within jobs; more chunks only when they all fit.
      #expect(chunks == 1 || chunks * requestsPerChunk <= jobs, "jobs \(jobs): \(chunks) chunks")
    }
  }

  @Test func firebaseBatchesOverlapAtTheDefaultJobsAndARequestPerAccountNeverDoes() {
    #expect(CommandRunner.chunksInFlight(jobs: 8, accountsPerRequest: 1_000) == 2)
    #expect(CommandRunner.chunksInFlight(jobs: 5, accountsPerRequest: 1_000) == 1)
    #expect(CommandRunner.chunksInFlight(jobs: 64, accountsPerRequest: 1) == 1)
  }

  /// Pass 1 keeps up to 100,000 accounts of a regular file of at most 32 MB, and up to 50,000 of a
  /// larger file or a stream: what it holds before it knows the count stays bounded.
  @Test func passOneKeepsMoreOnlyOfASmallRegularFile() throws {
    #expect(CommandRunner.importKept(fileSize: nil) == 50_000)
    #expect(CommandRunner.importKept(fileSize: 19 << 20) == 100_000)
    #expect(CommandRunner.importKept(fileSize: CommandRunner.importKeptFileSize) == 100_000)
    #expect(CommandRunner.importKept(fileSize: CommandRunner.importKeptFileSize + 1) == 50_000)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-kept-\(UUID().uuidString).jsonl")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    _ = FileManager.default.createFile(atPath: path, contents: Data("{}\n".utf8))
    let context = SupportHarness().context
    #expect(try AccountFile(path: path, name: path, hashConfig: nil, context).regularFileSize == 3)
    let fifo = path + ".fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { try? FileManager.default.removeItem(atPath: fifo) }
    #expect(try AccountFile(path: fifo, name: fifo, hashConfig: nil, context).regularFileSize == nil)
  }
}
