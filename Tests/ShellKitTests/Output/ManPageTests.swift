import Testing

@testable import ShellKit

@Suite("Man page")
struct ManPageTests {
  let page = ManPage.render()

  @Test func everyCommandAndFlagOfTheTableIsDocumented() {
    for spec in CommandTable.all {
      #expect(page.contains("\\fB" + Roff.escape(spec.name) + "\\fR"), "missing command \(spec.name)")
      for flag in spec.flags {
        #expect(page.contains("\\fB" + Roff.escape(flag.name) + "\\fR"), "missing \(flag.name) of \(spec.name)")
      }
    }
    for flag in CommandTable.globalFlags {
      #expect(page.contains("\\fB" + Roff.escape(flag.name) + "\\fR"), "missing global \(flag.name)")
    }
  }

  @Test func everyExitStatusIsDocumented() {
    for (code, _) in ExitStatus.documented {
      #expect(page.contains(".TP\n\\fB\(code)\\fR\n"))
    }
  }

  @Test func theSectionsAManPageReaderLooksFor() {
    for section in [
      "NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "SCRIPTS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES",
    ] {
      #expect(page.contains(".SH \(section.contains(" ") ? "\"\(section)\"" : section)\n"), "missing \(section)")
    }
  }

  @Test func textIsASCIIAndNoLineStartsWithAControlCharacterByAccident() {
    let nonASCII = page.unicodeScalars.filter { !$0.isASCII }
    #expect(nonASCII.isEmpty)
    for line in page.split(separator: "\n") where !line.hasPrefix(".") {
      #expect(!line.hasPrefix("'"))
    }
  }

  @Test func escaping() {
    #expect(Roff.escape("--json") == "\\-\\-json")
    #expect(Roff.escape("a\\b") == "a\\eb")
    #expect(Roff.escape("FILE…") == "FILE...")
    #expect(Roff.escape("é") == "\\[u00E9]")
  }
}
