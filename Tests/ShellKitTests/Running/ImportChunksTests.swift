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
}
