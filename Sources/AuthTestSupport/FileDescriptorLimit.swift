#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// RLIMIT_NOFILE: an enum case in Glibc, a plain Int32 in Darwin.
#if canImport(Glibc)
  private let openFilesResource = Int32(RLIMIT_NOFILE.rawValue)
#else
  private let openFilesResource = RLIMIT_NOFILE
#endif

/// The test process runs hundreds of servers and clients at once (parametrised cases run in
/// parallel). An ordinary user's default soft limit of 1024 descriptors is not enough for that,
/// while root's usually is: raise the soft limit to the hard one, once, as test runners do.
package enum FileDescriptorLimit {
  private static let raised: Bool = {
    var limit = rlimit()
    guard getrlimit(openFilesResource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return false }
    limit.rlim_cur = min(limit.rlim_max, 65536)
    return setrlimit(openFilesResource, &limit) == 0
  }()

  /// Idempotent; called by the test helpers that open sockets or spawn processes.
  @discardableResult
  package static func raiseSoftLimit() -> Bool { raised }
}
