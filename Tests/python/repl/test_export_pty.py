"""`user export --yes` on a real pseudo-terminal: a display name's escape sequences are shown as
text, not run (a link, a cleared screen), while a pipe still gets the bytes as they are; and the
progress line on standard error is erased before records are printed on the same terminal, so no
record starts on the line of "Exported 1000 accounts…"."""
import json
import re
import subprocess

from conftest import authsh_binary, start_emulator
from test_oneshot_pty import OneShot
from test_repl_pty import environment

EVIL = "Evil\x1b]8;;http://x.example\x07click\x1b]8;;\x07\x1b[2Jend"


def test_an_export_on_a_terminal_shows_control_characters_and_clears_its_progress_line(tmp_path):
    seed = tmp_path / "seed.jsonl"
    seed.write_text("".join(json.dumps({"backend": "supabase", "email": f"p{n:04d}@example.com"}) + "\n"
                            for n in range(1100)))
    emu = start_emulator("--seed", str(seed))
    try:
        env = {**environment(tmp_path, emu, "supabase"), "SUPABASE_SERVICE_ROLE_KEY": emu.service_role_key}
        env.pop("CI", None)  # the progress line stays off in CI; this test looks for it
        made = subprocess.run([authsh_binary(), "user", "create", "evil@example.com", "--name", EVIL], env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        assert made.returncode == 0, made.stderr

        run = OneShot(env, "user", "export", "--format", "csv", "--yes")
        assert run.finish() == 0
        screen = run.screen.getvalue()
        assert "evil@example.com" in screen and screen.count("@example.com,") == 1101
        assert "Evil\\e]8;;http://x.example\\u{7}click\\e]8;;\\u{7}\\e[2Jend" in screen
        assert "\x1b]8" not in screen and "\x1b[2J" not in screen and "\x07" not in screen
        # Drawn after the first page, then erased before the second page's records.
        progress = [m.end() for m in re.finditer(r"Exported \d+ accounts…", screen)]
        assert progress, screen[-2000:]
        assert all(screen[end:end + 4] == "\r\x1b[K" for end in progress), [screen[e:e + 20] for e in progress]

        # A pipe gets the records byte for byte.
        piped = subprocess.run([authsh_binary(), "user", "export", "--format", "csv", "--filter", "evil"], env=env,
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        assert piped.returncode == 0 and EVIL.encode() in piped.stdout
    finally:
        emu.stop()
