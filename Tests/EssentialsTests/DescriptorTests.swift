import Essentials
import Testing

struct DescriptorTests {
  func temporaryFile(_ bytes: [UInt8]) throws -> String {
    var template = Array("/tmp/essentials-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    try #require(fd >= 0)
    defer { _ = close(fd) }
    #expect(Descriptor.writeAll(fd, bytes) == (bytes.count, nil))
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// write(2) returning 0 is no progress: the loop stops with ENOSPC after one call instead of
  /// spinning; partial writes, EINTR and EAGAIN (waited out with poll) still get every byte in.
  @Test func writeAllStopsOnAZeroByteWriteAndFinishesPartialOnes() throws {
    var calls = 0
    let stuck = Descriptor.writeAll(1, Array("hello".utf8)) { _, _, _ in
      calls += 1
      return 0
    }
    #expect(stuck == (0, ENOSPC) && calls == 1)

    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    defer { ends.forEach { _ = close($0) } }
    var received: [UInt8] = []
    var step = 0
    let bytes = Array("partial, interrupted and would-block writes".utf8)
    let done = Descriptor.writeAll(ends[1], bytes) { _, base, count in
      step += 1
      switch step % 3 {
      case 1:
        errno = step == 1 ? EINTR : EAGAIN
        return -1
      default:
        let taken = min(count, 4)
        received += UnsafeRawBufferPointer(start: base, count: taken)
        return taken
      }
    }
    #expect(done == (bytes.count, nil) && received == bytes)
  }

  @Test func aFullDeviceIsENOSPC() throws {
    let fd = open("/dev/full", O_WRONLY)
    try #require(fd >= 0)
    defer { _ = close(fd) }
    #expect(Descriptor.writeAll(fd, [1, 2, 3]).failure == ENOSPC)
  }

  @Test func aFileIsReadWholeAndWrittenWhole() throws {
    let bytes = (0..<200_000).map { UInt8($0 % 251) }
    let path = try temporaryFile(bytes)
    defer { unlink(path) }
    #expect(try Descriptor.readFile(path) == bytes)
  }

  @Test func aMissingFileSaysWhyInTheSystemsWords() {
    #expect(throws: SystemError(ENOENT)) { try Descriptor.readFile("/nonexistent/essentials") }
    #expect(SystemError(ENOENT).description == "No such file or directory")
  }

  @Test func aFullDiskIsAnError() throws {
    let fd = open("/dev/full", O_WRONLY | O_CLOEXEC)
    try #require(fd >= 0)
    defer { _ = close(fd) }
    let (written, failure) = Descriptor.writeAll(fd, Array("line\n".utf8))
    #expect(written == 0 && failure == ENOSPC)
  }

  @Test func aDirectoryIsToldApart() throws {
    #expect(isDirectory("/tmp") == true)
    #expect(isDirectory("/nonexistent/essentials") == nil)
    let path = try temporaryFile([1])
    defer { unlink(path) }
    #expect(isDirectory(path) == false)
  }

  @Test func aStartedThreadRuns() async {
    // The continuation is resumed by the new thread alone: the test returns only if it ran.
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let started = startThread { continuation.resume() }
      #expect(started)
    }
  }

  func mode(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & 0o777 : 0
  }

  /// A created file is 0600 whatever the umask left, an existing one is set to 0600, and a link
  /// in a directory others may write to (where anyone may plant one) is not followed: its target
  /// keeps its bytes.
  @Test func createMakesA0600FileAndNeverFollowsALink() throws {
    let target = try temporaryFile(Array("keep".utf8))
    defer { unlink(target) }
    let shared = target + ".shared"
    #expect(mkdir(shared, 0o700) == 0 && chmod(shared, 0o777) == 0)
    defer { rmdir(shared) }
    let link = shared + "/link"
    #expect(symlink(target, link) == 0)
    defer { unlink(link) }
    let refusal = #expect(throws: SystemError.self) { try Descriptor.create(link, mode: 0o600) }
    #expect(refusal?.code == ELOOP)
    #expect(
      refusal?.description.contains("\(link) is a symbolic link in a directory group or others may write to") == true)
    #expect(try Descriptor.readFile(target) == Array("keep".utf8))

    #expect(chmod(target, 0o644) == 0)
    let fd = try Descriptor.create(target, mode: 0o600)
    _ = close(fd)
    #expect(mode(target) == 0o600)
    #expect(try Descriptor.readFile(target).isEmpty)

    let fresh = target + ".new"
    defer { unlink(fresh) }
    let saved = umask(0o277)
    defer { umask(saved) }
    _ = close(try Descriptor.create(fresh, mode: 0o600))
    #expect(mode(fresh) == 0o600)
  }

  /// `createNew` creates or refuses: an existing file (`EEXIST`) or link is never written through.
  @Test func createNewRefusesWhatIsThere() throws {
    let target = try temporaryFile(Array("keep".utf8))
    defer { unlink(target) }
    let link = target + ".link"
    #expect(symlink(target + ".absent", link) == 0)  // dangling: O_CREAT alone would create its target
    defer { unlink(link) }
    #expect(throws: SystemError(EEXIST)) { try Descriptor.createNew(target, mode: 0o600) }
    #expect(throws: SystemError.self) { try Descriptor.createNew(link, mode: 0o600) }
    #expect(access(target + ".absent", F_OK) != 0)
    let fresh = target + ".new"
    defer { unlink(fresh) }
    _ = close(try Descriptor.createNew(fresh, mode: 0o600))
    #expect(mode(fresh) == 0o600)
  }
}
