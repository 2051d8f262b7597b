import Essentials
import ShellKit
import Testing

/// `--report FILE`: a line per account, written through at once; a write that fails says so.
struct BatchReportTests {
  let record = BatchRecord(input: "a@example.com", outcome: .changed, message: "Confirmed.")

  @Test func aLineIsWrittenPerRecord() throws {
    let path = "/tmp/authsh-report-\(getpid()).jsonl"
    defer { unlink(path) }
    let report = try BatchReportFile.open(path)
    try report.write(record)
    try report.write(record)
    report.close()
    let text = String(decoding: try Descriptor.readFile(path), as: UTF8.self)
    #expect(text.split(separator: "\n").count == 2)
    #expect(text.hasPrefix(#"{"input":"a@example.com""#))
  }

  @Test func aFullDiskIsAnErrorNotASilentLoss() throws {
    let report = try BatchReportFile.open("/dev/full")
    #expect(throws: SystemError(ENOSPC)) { try report.write(record) }
    report.close()
    #expect(throws: SystemError(EBADF)) { try report.write(record) }
  }
}
