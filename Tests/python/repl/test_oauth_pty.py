"""`login --oauth` in the interactive shell, on a real pseudo-terminal: the provider's address is
printed (no display here); Ctrl-C while authsh waits for the browser cancels that sign-in only, and
the next `login --oauth` in the same shell waits for its own browser (nothing left over from the
one cancelled); the browser's round trip is played with requests against the emulator's page."""
import html
import re

import requests

from conftest import user_env
from test_repl_pty import Shell


def play_the_browser(url, email):
    """What a person does on the emulator's provider page: add an account. Returns authsh's page."""
    page = requests.get(url, timeout=10)  # follows /authorize to the provider's page
    form = page.text[page.text.rindex("<form", 0, page.text.index('id="add"')):]
    fields = {name: html.unescape(value)
              for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)}
    action = re.search(r'action="([^"]+)"', form).group(1)
    base = re.match(r"http://127\.0\.0\.1:\d+", url).group(0)
    back = requests.post(base + action, data={**fields, "email": email, "name": "Ann"}, allow_redirects=False,
                         timeout=10)
    assert back.status_code == 303, back.text
    return requests.get(back.headers["Location"], timeout=10).text


def test_a_cancelled_browser_sign_in_leaves_nothing_for_the_next_one(tmp_path, emulator):
    shell = Shell(user_env(tmp_path, emulator, "supabase", TERM="xterm"))
    try:
        shell.child.sendline("login --oauth google")
        shell.child.expect(r"(http://127\.0\.0\.1:\d+/auth/v1/authorize\S+)")
        shell.child.sendcontrol("c")
        shell.child.expect_exact("Cancelled.")
        shell.prompt()

        shell.child.sendline("login --oauth google")
        shell.child.expect(r"(http://127\.0\.0\.1:\d+/auth/v1/authorize\S+)")
        url = shell.child.match.group(1)
        shell.child.expect(r"\S")  # still waiting: no "Cancelled." from the sign-in before
        assert "Cancelled." not in shell.child.after + shell.child.before
        assert "Signed in" in play_the_browser(url, "ann@example.com")
        shell.child.expect_exact("Signed in with google as ann@example.com")
        shell.prompt()
        assert "ann@example.com" in shell.run("whoami")
    finally:
        if shell.child.isalive():
            shell.child.terminate(force=True)
