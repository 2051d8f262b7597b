import AuthCore

/// `authsh.1`, generated from the command table like help and completion (committed under `man/`;
/// a test keeps the committed page equal to this output). Plain man(7) macros, ASCII only, so
/// `mandoc -Tlint` and groff both read it without warnings.
package enum ManPage {
  /// The page's date: the release it documents, not the build day, so the output is reproducible.
  package static let date = "2026-11-23"

  package static func render() -> String {
    var page = Roff()
    page.macro("TH", "AUTHSH", "1", date, "authsh \(AuthshVersion.current)", "User Commands")
    page.section("NAME")
    page.text("authsh \\- sign in, sign up and reset passwords on Supabase Auth and Firebase Authentication")
    synopsis(&page)
    description(&page)
    commands(&page)
    page.section("GLOBAL FLAGS")
    page.text("Accepted before or after any one-shot command.")
    flags(CommandTable.globalFlags, into: &page)
    passwords(&page)
    ManPageText.fixedSections(&page)
    return page.output
  }

  static func synopsis(_ page: inout Roff) {
    page.section("SYNOPSIS")
    let forms = [
      ("", "[FLAGS] COMMAND [ARGS]"), ("", "[--emulator] [--no-rc]"), ("run", "FILE.auth... [--emulator] [--jobs N]"),
      ("emulator", "[--port PORT] [--state FILE]"), ("completion", "bash|zsh|fish"),
    ]
    for (command, rest) in forms {
      page.macro("SY", "authsh")
      page.text((command.isEmpty ? "" : "\\fB\(command)\\fR ") + Roff.escape(rest))
      page.macro("YS")
    }
  }

  static func description(_ page: inout Roff) {
    page.section("DESCRIPTION")
    page.text(
      """
      authsh is a terminal tool for people who run apps whose users sign in with e-mail and password \
      on Supabase Auth (GoTrue) or Firebase Authentication (Identity Toolkit). It has one-shot \
      commands for scripts, an interactive line-edited shell for support staff (started when authsh \
      runs on a terminal with no command), a runner for .auth scripts with assertions for CI smoke \
      tests, and an embedded emulator of both backends for offline work.
      """)
    page.paragraph()
    page.text(
      """
      The same command words work as one-shot commands, as lines typed in the shell and as \
      statements of .auth scripts. Every command that talks to a backend takes the output flags \
      listed under GLOBAL FLAGS.
      """)
  }

  static func commands(_ page: inout Roff) {
    page.section("COMMANDS")
    for spec in CommandTable.all {
      page.macro("TP")
      page.text("\\fB\(Roff.escape(spec.name))\\fR" + usageTail(spec))
      page.text(Roff.escape(spec.summary) + "." + surfacesNote(spec.surfaces))
      if !spec.discussion.isEmpty {
        page.text(Roff.escape(spec.discussion))
      }
      for argument in spec.arguments {
        page.macro("RS")
        page.macro("TP")
        page.text("\\fI\(Roff.escape(argument.name))\\fR")
        let choices = argument.choices.isEmpty ? "" : " (" + argument.choices.joined(separator: ", ") + ")"
        page.text(Roff.escape(argument.summary + choices + "."))
        page.macro("RE")
      }
      let own = spec.flags
      if !own.isEmpty {
        page.macro("RS")
        flags(own, into: &page)
        page.macro("RE")
      }
    }
  }

  static func usageTail(_ spec: CommandSpec) -> String {
    let full = spec.usage(for: spec.surfaces.contains(.oneShot) ? .oneShot : .repl)
    let tail = full.dropFirst(spec.name.count)
    return tail.isEmpty ? "" : " " + Roff.escape(String(tail.drop { $0 == " " }))
  }

  static func surfacesNote(_ surfaces: Surfaces) -> String {
    if surfaces == .all { return "" }
    if surfaces == .oneShot { return " (command line only.)" }
    if surfaces == .repl { return " (interactive shell only.)" }
    if surfaces == .interactive { return " (shell and scripts only.)" }
    return ""
  }

  static func flags(_ flags: [FlagSpec], into page: inout Roff) {
    for flag in flags {
      page.macro("TP")
      page.text(
        "\\fB" + Roff.escape(flag.name) + "\\fR" + (flag.valueName.map { " \\fI" + Roff.escape($0) + "\\fR" } ?? ""))
      let choices = flag.choices.isEmpty ? "" : " One of: " + flag.choices.joined(separator: ", ") + "."
      page.text(Roff.escape(flag.summary + "." + choices))
    }
  }

  static func passwords(_ page: inout Roff) {
    page.section("PASSWORD SOURCES")
    page.text(
      """
      signup, login and reset confirm read the password from one of: --password VALUE (kept out of \
      the shell's history), --password-env VAR, --password-stdin (one-shot only), or, when none is \
      given and standard input is a terminal, a prompt with echo off (signup and reset confirm ask \
      twice). With no source and no terminal the command fails with password_required instead of \
      waiting.
      """)
  }
}

/// A minimal man(7) writer: one request or text line per line, text escaped.
struct Roff {
  private(set) var output = ""

  mutating func macro(_ name: String, _ arguments: String...) {
    let quoted = arguments.map { $0.contains(" ") || $0.isEmpty ? "\"\($0)\"" : $0 }
    output += "." + ([name] + quoted).joined(separator: " ") + "\n"
  }

  mutating func section(_ title: String) { macro("SH", title) }
  mutating func subsection(_ title: String) { macro("SS", title) }
  mutating func paragraph() { macro("PP") }

  /// Already-escaped text (may hold font escapes); a line never starts with a control character.
  mutating func text(_ line: String) {
    for part in line.split(separator: "\n", omittingEmptySubsequences: true) {
      let line = String(part)
      output += (line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" : "") + line + "\n"
    }
  }

  /// Literal lines (examples, code): no filling.
  mutating func literal(_ lines: [String]) {
    macro("PP")
    macro("EX")
    for line in lines { text(Roff.escape(line)) }
    macro("EE")
  }

  /// Plain text → roff text: backslashes and dashes escaped, typography to ASCII or named glyphs.
  static func escape(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\e"
      case "-": result += "\\-"
      case "\u{2026}": result += "..."
      case "\u{2014}": result += "\\(em"
      case "\u{2013}": result += "\\(en"
      case "\u{2192}": result += "\\(->"
      case "\u{00B7}": result += "\\(pc"
      case "\u{2018}", "\u{2019}": result += "'"
      case "\u{201C}", "\u{201D}": result += "\""
      default:
        if scalar.isASCII {
          result.unicodeScalars.append(scalar)
        } else {
          let hex = String(scalar.value, radix: 16, uppercase: true)
          result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
        }
      }
    }
    return result
  }
}
