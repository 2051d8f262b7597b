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
}
