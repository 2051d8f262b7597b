import Essentials
import Testing

/// `SafePath`: every hop of a path walked by hand, links followed only where no one else could
/// have planted them, the file opened where the walk ended.
struct SafePathTests {
  func scratch() throws -> String {
    var template = Array("/tmp/safepath-XXXXXX".utf8CString)
    try #require(mkdtemp(&template) != nil)
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  func contents(_ path: String) -> String {
    (try? Descriptor.readFile(path)).map { String(decoding: $0, as: UTF8.self) } ?? "<missing>"
  }

  func write(_ text: String, _ path: String) throws {
    let fd = try SafePath.open(path, flags: O_WRONLY | O_CREAT | O_TRUNC)
    defer { _ = close(fd) }
    #expect(Descriptor.writeAll(fd, Array(text.utf8)).failure == nil)
  }

  /// A chain of your own links (relative and absolute, through a linked directory) is followed
  /// to the file, which is written in place; a new file is created where the last link points.
  @Test func yourOwnLinksAreFollowed() throws {
    let directory = try scratch()
    #expect(mkdir(directory + "/real", 0o700) == 0)
    #expect(symlink("real", directory + "/dir") == 0)
    try write("old", directory + "/real/file")
    #expect(symlink(directory + "/dir/file", directory + "/first") == 0)
    #expect(symlink("first", directory + "/second") == 0)
    try write("new", directory + "/second")
    #expect(contents(directory + "/real/file") == "new")
    #expect(symlink("real/fresh", directory + "/dangling") == 0)
    try write("made", directory + "/dangling")
    #expect(contents(directory + "/real/fresh") == "made")
  }

  /// The chain: your link to a link in a shared directory, which points at a file of
  /// yours. The middle hop is refused, whatever comes after it; nothing is written.
  @Test func aHopInADirectoryOthersMayWriteIsRefused() throws {
    let directory = try scratch()
    #expect(mkdir(directory + "/shared", 0o700) == 0 && chmod(directory + "/shared", 0o777) == 0)
    try write("keep", directory + "/victim")
    #expect(symlink(directory + "/victim", directory + "/shared/planted") == 0)
    #expect(symlink(directory + "/shared/planted", directory + "/mine") == 0)
    let refusal = #expect(throws: SystemError.self) { try write("bent", directory + "/mine") }
    #expect(refusal?.code == ELOOP)
    #expect(
      refusal?.description
        == "\(directory)/shared/planted is a symbolic link in a directory group or others may write to (mode 0777), so they could replace it; authsh does not use it"
    )
    // A file of yours in the shared directory is refused too; in a sticky one (/tmp) it is yours to use.
    #expect(throws: SystemError.self) { try write("x", directory + "/shared/file") }
    #expect(chmod(directory + "/shared", 0o1777) == 0)
    try write("ok", directory + "/shared/file")
    #expect(contents(directory + "/victim") == "keep")
  }

  /// A hop owned by another user (not root) is refused, even in your own directory.
  @Test(.enabled(if: geteuid() == 0, "lchown to another user needs root"))
  func aHopOwnedByAnotherUserIsRefused() throws {
    let directory = try scratch()
    try write("keep", directory + "/victim")
    #expect(symlink(directory + "/victim", directory + "/theirs") == 0)
    #expect(lchown(directory + "/theirs", 65534, 65534) == 0)
    let refusal = #expect(throws: SystemError.self) { try write("bent", directory + "/theirs") }
    #expect(refusal?.description.hasPrefix("\(directory)/theirs is a symbolic link owned by ") == true)
    #expect(refusal?.description.contains("(uid 65534), not by you or root") == true)
    #expect(contents(directory + "/victim") == "keep")
  }

  /// A loop of links ends at the hop limit; `followLast: false` refuses the link itself.
  @Test func aLoopAndALinkNotToBeFollowedAreRefused() throws {
    let directory = try scratch()
    #expect(symlink("b", directory + "/a") == 0 && symlink("a", directory + "/b") == 0)
    let loop = #expect(throws: SystemError.self) { try SafePath.open(directory + "/a", flags: O_RDONLY) }
    #expect(loop?.code == ELOOP)
    try write("x", directory + "/file")
    #expect(symlink("file", directory + "/link") == 0)
    let link = #expect(throws: SystemError.self) {
      try SafePath.open(directory + "/link", flags: O_RDONLY, followLast: false)
    }
    #expect(link?.code == ELOOP && link?.reason == nil)
  }

  /// The kernel's links in /proc (`/dev/stdout`) open what they stand for.
  @Test func devStdoutOpens() throws {
    let fd = try SafePath.open("/dev/stdout", flags: O_WRONLY)
    var opened = stat()
    var output = stat()
    #expect(fstat(fd, &opened) == 0 && fstat(1, &output) == 0)
    #expect(opened.st_ino == output.st_ino && opened.st_dev == output.st_dev)
    _ = close(fd)
  }
}
