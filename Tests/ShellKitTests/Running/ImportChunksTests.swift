import AuthCore
import Foundation
import Testing

@testable import ShellKit

/// `user import` sends a second chunk while one is still out only when `--jobs` has room for both:
/// requests at a time never exceed `--jobs`, for every value it takes and both kinds of backend.
@Suite struct ImportChunksTests {
  @Test(arguments: [1, 2, 1_000]) func requestsAtATimeStayWithinJobs(accountsPerRequest: Int) {
    let requestsPerChunk = (UserImportCommand.importChunk + accountsPerRequest - 1) / accountsPerRequest
    for jobs in 1...64 {
      let chunks = UserImportCommand.chunksInFlight(jobs: jobs, accountsPerRequest: accountsPerRequest)
      #expect(chunks >= 1)
      // One chunk's importer keeps its own requests within jobs; more chunks only when they all fit.
      #expect(chunks == 1 || chunks * requestsPerChunk <= jobs, "jobs \(jobs): \(chunks) chunks")
    }
  }

  @Test func firebaseBatchesOverlapAtTheDefaultJobsAndARequestPerAccountNeverDoes() {
    #expect(UserImportCommand.chunksInFlight(jobs: 8, accountsPerRequest: 1_000) == 2)
    #expect(UserImportCommand.chunksInFlight(jobs: 5, accountsPerRequest: 1_000) == 1)
    #expect(UserImportCommand.chunksInFlight(jobs: 64, accountsPerRequest: 1) == 1)
  }

  /// Pass 1 keeps up to 100,000 accounts of a regular file of at most 32 MB, and up to 50,000 of a
  /// larger file or a stream: what it holds before it knows the count stays bounded.
  @Test func passOneKeepsMoreOnlyOfASmallRegularFile() throws {
    #expect(UserImportCommand.importKept(fileSize: nil) == 50_000)
    #expect(UserImportCommand.importKept(fileSize: 19 << 20) == 100_000)
    #expect(UserImportCommand.importKept(fileSize: UserImportCommand.importKeptFileSize) == 100_000)
    #expect(UserImportCommand.importKept(fileSize: UserImportCommand.importKeptFileSize + 1) == 50_000)
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

/// The first Ctrl-C or SIGTERM during pass 1 (the check, before anything is sent) ends it at once:
/// a regular file is not read to its end, and a pipe that has nothing to give is not waited on.
@Suite struct ImportStopWhileCheckingTests {
  @Test func aStopWhileAFileIsCheckedEndsItAndNothingIsSent() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("authsh-stop-\(UUID().uuidString).jsonl")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let lines = (0..<20_000).map { #"{"id":"u\#($0)","email":"u\#($0)@example.com"}"# }
    _ = FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
    let harness = SupportHarness()
    let stop = BatchStop()
    stop.stop()
    let result = try await harness.run("user import \(path) --yes", io: CommandIO(batchStop: stop))
    #expect(result.error?.code == .cancelled)
    #expect(result.error?.neverSent == true)
    #expect(result.error?.message == "Stopped while \(path) was being checked: nothing was sent.")
    #expect(harness.provider.calls.isEmpty, "\(harness.provider.calls)")
  }

  @Test func aStopWhileAPipeHasNothingToGiveEndsTheWait() async throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { _ = close(ends[1]) }
    // The writer end stays open and silent: without the stop, pass 1 would wait for ever.
    let path = "/dev/fd/\(ends[0])"
    let harness = SupportHarness()
    let stop = BatchStop()
    // Stopped already: the wait for a pipe's bytes asks first (a stop fired from a task would
    // need a thread of the pool the waiting test holds).
    stop.stop()
    let result = try await harness.run("user import \(path) --yes", io: CommandIO(batchStop: stop))
    #expect(result.error?.code == .cancelled, "\(String(describing: result.error))")
    #expect(result.error?.message == "Stopped while \(path) was being checked: nothing was sent.")
    _ = close(ends[0])
  }
}
