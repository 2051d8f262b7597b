"""The documentation stays honest: README.md, CONTRIBUTING.md and docs/*.md.

- Every relative link and `#anchor` resolves: the file exists, and the anchor is a heading of the
  target page by GitHub's rules (lowercase; punctuation other than `-` and `_` dropped; spaces to
  `-`; a repeated heading gets `-1`, `-2`, …).
- README.md is a landing page (at most 250 lines, the two set-up commands first, a link to every
  page of docs/); docs/ has at least 8 pages, each with a title and a link back to README; no page
  cites the internal specification; prose lines are at most 100 characters (code blocks and tables
  may be longer).
- The examples still run, as far as can be checked offline. Every ```auth block passes the check
  `authsh run` makes of a file before it sends anything (exit 2 and "nothing was run" when it
  fails), as does every `authsh run` command of a sh/console block whose scripts are in the
  repository. Every `authsh …` command of a ```sh, ```bash or ```console block (a `$ ` line in a
  console block), and of an inline code span, names a command of `authsh help` and only flags
  that command takes: those `authsh help COMMAND` lists, and the global flags of `authsh help`
  (the output flags, such as --json, only where the command's own help lists them).

Opting out: an ```auth block that is only a fragment of a script, not a whole file, is marked by
the line `<!-- fragment -->` just before its fence. The test skips it, and fails when more than
MAX_FRAGMENTS blocks are marked so.

Nothing here touches the network; the checker runs with nothing configured (no backend, no
session), so a script that passes the check fails at its first command, at once. The binary is
conftest's: AUTHSH_BIN, else .build/debug/authsh.
"""
import os
import re
import shlex
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import ROOT, authsh_binary, user_env

PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
DOCS = sorted((ROOT / "docs").glob("*.md"))
FRAGMENT = "<!-- fragment -->"
MAX_FRAGMENTS = 2
MAX_README_LINES = 250
MAX_PROSE_WIDTH = 100

FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")


# ------------------------------------------------------------------ reading Markdown

def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def blocks(text: str):
    """Fenced code blocks: (info, first line number of the content, content lines, opted out)."""
    lines = text.split("\n")
    found = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, indent = m.group("fence"), len(m.group("indent"))
        before = next((l.strip() for l in reversed(lines[:i]) if l.strip()), "")
        j = i + 1
        body = []
        while j < len(lines):
            close = FENCE.match(lines[j])
            if close and close.group("fence")[0] == fence[0] and len(close.group("fence")) >= len(fence) \
                    and not close.group("info").strip():
                break
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        found.append((m.group("info").strip(), i + 2, body, before == FRAGMENT))
        i = j + 1
    return found


def prose(text: str) -> str:
    """The page without its fenced blocks and HTML comments (blanked, so line numbers hold)."""
    lines = text.split("\n")
    out = []
    fence = None
    for line in lines:
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group("fence")
            out.append("")
        elif fence is not None:
            if m and m.group("fence")[0] == fence[0] and len(m.group("fence")) >= len(fence) \
                    and not m.group("info").strip():
                fence = None
            out.append("")
        else:
            out.append(line)
    joined = "\n".join(out)
    return re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), joined, flags=re.S)


def code_spans(text: str):
    """Inline code spans of prose: (content, line number), a span's line breaks read as spaces."""
    spans = []
    for m in re.finditer(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", text, flags=re.S):
        content = m.group(2).replace("\n", " ")
        if content.startswith(" ") and content.endswith(" ") and content.strip():
            content = content[1:-1]
        spans.append((content, text.count("\n", 0, m.start()) + 1))
    return spans


def without_code_spans(text: str) -> str:
    return re.sub(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", lambda m: "x" * 3 + "\n" * m.group(0).count("\n"),
                  text, flags=re.S)


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: its text (markup dropped), lowercased, punctuation other
    than `-` and `_` removed, spaces to `-`."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # a link: its text
    text = re.sub(r"<[^>]+>", "", text)                          # inline HTML
    text = text.replace("`", "").lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set:
    seen = {}
    result = set()
    for line in prose(path.read_text()).split("\n"):
        m = HEADING.match(line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        result.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return result


def links(path: Path):
    """Inline links and images of a page: (target, line number)."""
    text = without_code_spans(prose(path.read_text()))
    found = []
    for m in re.finditer(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)", text):
        found.append((m.group(1), text.count("\n", 0, m.start()) + 1))
    for m in re.finditer(r"^\s*\[[^\]]+\]:\s*(\S+)", text, flags=re.M):   # reference definitions
        found.append((m.group(1), text.count("\n", 0, m.start()) + 1))
    return found


# ------------------------------------------------------------------ pages and links

@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_every_relative_link_and_anchor_resolves(page):
    problems = []
    for target, line in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, flags=re.I):   # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        where = f"{rel(page)}:{line}: {target}"
        if not dest.exists():
            problems.append(f"{where}: no such file")
        elif ROOT not in dest.parents and dest != ROOT:
            problems.append(f"{where}: outside the repository")
        elif anchor:
            if dest.suffix != ".md":
                problems.append(f"{where}: an anchor into a file that is not Markdown")
            elif anchor not in anchors(dest):
                problems.append(f"{where}: no heading of {rel(dest)} has the anchor #{anchor}")
    assert not problems, "\n".join(problems)


def test_readme_is_a_landing_page():
    text = (ROOT / "README.md").read_text()
    lines = text.split("\n")
    assert len(text.splitlines()) <= MAX_README_LINES, f"README.md has {len(text.splitlines())} lines"
    assert lines[0].startswith("# ")
    # The two commands that set up a fresh machine come first: before any section.
    first_section = next(n for n, line in enumerate(lines) if line.startswith("## "))
    info, start, body, _ = blocks(text)[0]
    assert start < first_section, "README's first code block must come before its first section"
    commands = [line.split()[0] for line in body if line.strip()]
    assert commands == ["scripts/main-job.sh", "scripts/test.sh"], commands
    targets = {(ROOT / t.partition("#")[0]).resolve() for t, _ in links(ROOT / "README.md")}
    missing = [rel(page) for page in DOCS if page.resolve() not in targets]
    assert not missing, f"README's contents do not link to {missing}"
    assert (ROOT / "CONTRIBUTING.md").resolve() in targets


def test_docs_has_its_topic_pages():
    assert len(DOCS) >= 8, [rel(p) for p in DOCS]
    for page in DOCS:
        lines = page.read_text().split("\n")
        assert lines[0].startswith("# "), f"{rel(page)} starts with no title"
        summary = next(line for line in lines[1:] if line.strip())
        assert not summary.startswith("#"), f"{rel(page)}: no line saying what the page covers"
        assert any(t.partition("#")[0] == "../README.md" for t, _ in links(page)), \
            f"{rel(page)} does not link back to README"


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_no_page_cites_the_internal_specification(page):
    text = page.read_text()
    # `--fault SPEC` is the flag's value as `authsh help emulator` names it, not a citation.
    cited = text.replace("--fault SPEC", "--fault")
    for needle in ("SPEC", "§", "shared/"):
        lines = [n for n, line in enumerate(cited.split("\n"), 1) if needle in line]
        assert not lines, f"{rel(page)} cites {needle!r} on lines {lines}"


@pytest.mark.parametrize("page", PAGES, ids=rel)
def test_prose_lines_are_at_most_100_characters(page):
    # Tables may stay long, and so may a line that is one word (a code span with no space in it).
    long = [n for n, line in enumerate(prose(page.read_text()).split("\n"), 1)
            if len(line) > MAX_PROSE_WIDTH and not line.lstrip().startswith("|") and len(line.split()) > 1]
    assert not long, f"{rel(page)}: lines over {MAX_PROSE_WIDTH} characters (rewrap them): {long}"


# ------------------------------------------------------------------ the binary's commands and flags

def binary() -> str:
    path = authsh_binary()
    if not os.access(path, os.X_OK):
        pytest.fail(f"no authsh binary at {path} (build it, or set AUTHSH_BIN)", pytrace=False)
    return path


@lru_cache(maxsize=None)
def help_text(*words) -> str:
    result = subprocess.run([binary(), "help", *words], capture_output=True, text=True, timeout=30,
                            stdin=subprocess.DEVNULL)
    assert result.returncode == 0, f"authsh help {' '.join(words)}: {result.stderr}"
    return result.stdout


def flag_lines(text: str) -> dict:
    """The Flags section of a help text: {name: (takes a value, description)}."""
    flags = {}
    section = None
    for line in text.split("\n"):
        if line and not line.startswith(" "):
            section = line.rstrip(":")
            continue
        m = re.match(r"^  (--[A-Za-z0-9-]+)((?: \S+)?)\s{2,}(.*)$", line)
        if section == "Flags" and m:
            flags[m.group(1)] = (bool(m.group(2).strip()), m.group(3).strip())
    return flags


@lru_cache(maxsize=None)
def command_table():
    """(commands, global flags) from `authsh help`: every command as its words, and the flags
    every one-shot command takes."""
    text = help_text()
    commands = set()
    section = None
    for line in text.split("\n"):
        if line and not line.startswith(" "):
            section = line.rstrip(":")
            continue
        if section in (None, "Usage", "Flags") or not line.strip():
            continue
        words = []
        for word in line.split():
            if not re.fullmatch(r"[a-z][a-z-]*", word):
                break
            words.append(word)
        if words:
            commands.add(" ".join(words))
    return frozenset(commands), flag_lines(text)


@lru_cache(maxsize=None)
def accepted_flags(command: str) -> dict:
    """The flags COMMAND takes: those its help lists, and the global ones. A global flag that
    some command's help lists with the same words (an output flag such as --json) is taken only
    where a command's help lists it."""
    commands, global_flags = command_table()
    own = flag_lines(help_text(*command.split())) if command else {}
    output_flags = set()
    for other in commands:
        for name, (_, description) in flag_lines(help_text(*other.split())).items():
            if name in global_flags and global_flags[name][1] == description:
                output_flags.add(name)
    flags = dict(own)
    for name, spec in global_flags.items():
        if name not in flags and (not command or name not in output_flags):
            flags[name] = spec
    return flags


# ------------------------------------------------------------------ reading command lines

def strip_comment(line: str) -> str:
    """A shell line without its `# comment` (a `#` that starts a word, outside quotes)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                continue
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def shell_commands(line: str):
    """The simple commands of a shell line (each a list of words), substitutions `$(…)` and
    `<(…)` included as commands of their own."""
    inner = []

    def take(m):
        inner.append(m.group(1))
        return " SUBSTITUTION "
    while True:
        replaced = re.sub(r"[$<]\(([^()]*)\)", take, line)
        if replaced == line:
            break
        line = replaced
    found = []
    for text in inner:
        found.extend(shell_commands(text))
    try:
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>()")
        lexer.whitespace_split = True
        lexer.commenters = ""
        tokens = list(lexer)
    except ValueError as error:
        raise AssertionError(f"cannot split {line!r}: {error}")
    current = []
    skip_next = False
    for token in tokens:
        if skip_next:
            skip_next = False
            continue
        if token in (">", ">>", "<", ">&", "<<", "<<<"):
            skip_next = True
            continue
        if token and set(token) <= set(";&|()"):
            found.append(current)
            current = []
            continue
        current.append(token)
    found.append(current)
    commands = []
    for words in found:
        while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
            words = words[1:]
        if words:
            commands.append(words)
    return commands


def block_command_lines():
    """(page, line number, text) of each command line of the sh, bash and console blocks:
    continuation lines joined, a console block's `$ ` lines only."""
    found = []
    for page in PAGES:
        for info, start, body, _ in blocks(page.read_text()):
            language = info.split()[0] if info else ""
            if language not in ("sh", "bash", "console", "shell"):
                continue
            n = 0
            while n < len(body):
                line, number = body[n], start + n
                n += 1
                if language == "console":
                    if not line.startswith("$ "):
                        continue
                    line = line[2:]
                while line.rstrip().endswith("\\") and n < len(body):
                    line = line.rstrip()[:-1] + " " + body[n].strip()
                    n += 1
                line = strip_comment(line).strip()
                if line:
                    found.append((page, number, line))
    return found


def inline_commands():
    """(page, line number, text) of each inline code span that is an `authsh …` command, or a
    command's words with a flag (`user list --filter TEXT`), read as `authsh user list …`."""
    commands, _ = command_table()
    first_words = {command.split()[0] for command in commands}
    found = []
    for page in PAGES:
        for content, line in code_spans(prose(page.read_text())):
            if content.startswith("authsh ") or content == "authsh":
                found.append((page, line, content))
            elif content.split()[0] in first_words and " --" in content:
                found.append((page, line, "authsh " + content))
    return found


def check_authsh(words: list) -> list:
    """What is wrong with one `authsh …` command: an unknown command or a flag it does not take."""
    commands, global_flags = command_table()
    words = [w for w in words[1:] if w not in ("…", "...")]
    # `[--soft]`, `[--factor ID]`: optional parts as the usage lines write them.
    words = [w.strip("[]") if w.startswith("[") or w.endswith("]") else w for w in words]
    words = [w for w in words if w]
    i = 0
    while i < len(words) and words[i].startswith("-"):   # global flags before the command
        name = words[i].split("=", 1)[0]
        i += 2 if global_flags.get(name, (False, ""))[0] and "=" not in words[i] else 1
    # The command: the longest run of words from there that names one.
    command = ""
    run = []
    for word in words[i:]:
        if word.startswith("-"):
            break
        run.append(word)
        prefix = " ".join(run)
        if prefix in commands:
            command = prefix
        if not any(c == prefix or c.startswith(prefix + " ") for c in commands):
            break
    if i < len(words) and words[i].startswith("__"):
        return []   # the binary's internal commands (`__complete`, `__man`, `__ledger`) are not in help
    if i < len(words) and not command:
        return [f"unknown command {' '.join(w for w in words[i:i + 2] if not w.startswith('-'))!r}"]
    flags = accepted_flags(command)
    return [f"'authsh {command}'".replace(" '", "'") + f" takes no {word.split('=', 1)[0]}"
            for word in words if word.startswith("--") and word.split("=", 1)[0] not in flags]


def test_every_authsh_command_in_a_code_block_is_real():
    checked = 0
    problems = []
    for page, number, line in block_command_lines():
        for words in shell_commands(line):
            if words[0] != "authsh":
                continue
            checked += 1
            problems += [f"{rel(page)}:{number}: {line}\n    {p}" for p in check_authsh(words)]
    assert checked >= 60, f"only {checked} authsh commands found in the code blocks"
    assert not problems, "\n".join(problems)


def test_every_inline_authsh_command_is_real():
    checked = 0
    problems = []
    for page, number, content in inline_commands():
        # A usage line's alternatives (`[--port N | --url URL]`) are not pipes.
        text = re.sub(r"\[[^\]]*\|[^\]]*\]", lambda m: m.group(0).replace("|", " "), content)
        for words in shell_commands(text):
            if words[0] != "authsh":
                continue
            checked += 1
            problems += [f"{rel(page)}:{number}: {content}\n    {p}" for p in check_authsh(words)]
    assert checked >= 80, f"only {checked} inline authsh commands found"
    assert not problems, "\n".join(problems)


# Flags the pages name that are not authsh's: other tools' and deliberately wrong input.
NOT_AUTHSH_FLAGS = {
    "--prefix", "--destdir", "--uninstall", "--user",      # scripts/install.sh, install-completions.sh
    "--static-swift-stdlib", "--in-place", "--parallel", "--strict",   # swift build, swift format
    "--impersonate-service-account",                       # gcloud auth application-default login
    "--hash-algo",                                         # firebase auth:import
    "--web",                                               # gh auth login
    "--flag", "--report-", "--pass",                       # `--flag=<Tab>`, `--report-*`, a mistyped flag
}


def test_every_flag_the_pages_name_is_one_of_authshs():
    """A `--flag` anywhere on a page, prose included, is one that `authsh help` or a command's
    help lists (or one of NOT_AUTHSH_FLAGS): a misspelt or removed flag shows up here."""
    commands, global_flags = command_table()
    known = set(global_flags)
    for command in commands:
        known |= set(flag_lines(help_text(*command.split())))
    problems = []
    for page in PAGES:
        text = page.read_text()
        for m in re.finditer(r"(?<![\w-])--[a-z][a-z0-9-]*", text):
            if m.group(0) not in known and m.group(0) not in NOT_AUTHSH_FLAGS:
                problems.append(f"{rel(page)}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    assert not problems, "flags no authsh command takes:\n" + "\n".join(problems)


# ------------------------------------------------------------------ scripts

def run_check(tmp_path, files, extra=(), cwd=ROOT):
    """`authsh run FILES…` with nothing configured: the check passes when the run gets past it
    (not exit 2), and then fails at the first command, sending nothing."""
    text = "".join(Path(cwd, f).read_text() for f in files)
    names = set(re.findall(r"\{\{\s*env\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}", text))
    env = user_env(tmp_path / "home", **{name: "docs-test-value" for name in names})
    result = subprocess.run([binary(), "run", *files, *extra], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL)
    failed = result.returncode == 2 or "nothing was run" in result.stderr
    return failed, result.stdout + result.stderr


def auth_blocks():
    for page in PAGES:
        for info, start, body, fragment in blocks(page.read_text()):
            if info.split()[:1] == ["auth"]:
                yield page, start, body, fragment


def test_every_auth_block_passes_the_script_check(tmp_path):
    checked = fragments = 0
    problems = []
    for page, start, body, fragment in auth_blocks():
        if fragment:
            fragments += 1
            continue
        checked += 1
        script = tmp_path / f"block{checked}.auth"
        script.write_text("\n".join(body) + "\n")
        failed, output = run_check(tmp_path, [str(script)], cwd=tmp_path)
        if failed:
            problems.append(f"{rel(page)}:{start}: the block does not pass the check:\n{output}")
    assert fragments <= MAX_FRAGMENTS, f"{fragments} ```auth blocks are marked {FRAGMENT}"
    assert checked >= 1, "no ```auth block to check"
    assert not problems, "\n".join(problems)


def test_every_authsh_run_example_passes_the_script_check(tmp_path):
    """`authsh run FILE…` lines of the code blocks and inline code, with the files in the
    repository: the same files, --data and --var, checked without the emulator."""
    checked = 0
    problems = []
    lines = block_command_lines() + inline_commands()
    for page, number, line in lines:
        for words in shell_commands(line):
            if words[:2] != ["authsh", "run"]:
                continue
            files, extra = [], []
            rest = words[2:]
            i = 0
            while i < len(rest):
                if rest[i] in ("--data", "--var"):
                    extra += rest[i:i + 2]
                    i += 2
                elif rest[i] in ("--jobs", "--seed", "--smtp", "--report-junit", "--report-tap", "--report-json"):
                    i += 2
                elif rest[i].startswith("-"):
                    i += 1
                else:
                    files.append(rest[i])
                    i += 1
            if not files or not all(f.endswith(".auth") and (ROOT / f).is_file() for f in files):
                continue
            if any(extra[k] == "--data" and not (ROOT / extra[k + 1]).is_file() for k in range(0, len(extra), 2)):
                continue
            checked += 1
            failed, output = run_check(tmp_path, files, extra)
            if failed:
                problems.append(f"{rel(page)}:{number}: {line}: does not pass the check:\n{output}")
    assert checked >= 1, "no `authsh run` example with its scripts in the repository"
    assert not problems, "\n".join(problems)
