"""`login --link` on a Supabase profile with `flow = "pkce"`, on a real pseudo-terminal: authsh
asks for the mail with a code challenge, and the URL the link sends the browser to (the app's,
with `?code=`) is pasted; authsh trades the code with the verifier it kept for this command."""
import requests
from supabase_auth import SyncGoTrueClient

from conftest import start_emulator, user_env
from test_oneshot_pty import OneShot



def test_login_link_with_pkce_takes_the_pasted_code_url(tmp_path):
    emu = start_emulator()
    try:
        config = tmp_path / "config" / "authsh"
        config.mkdir(parents=True)
        (config / "config.toml").write_text(
            f'[profiles.app]\nprovider = "supabase"\nurl = "{emu.base}"\nkey_env = "APP_ANON_KEY"\nflow = "pkce"\n')
        env = user_env(tmp_path, None, TERM="xterm", APP_ANON_KEY=emu.anon_key, AUTHSH_PROFILE="app",
                       AUTHSH_CREDENTIAL_STORE="file")
        env.pop("CI", None)
        SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": emu.anon_key}, persist_session=False,
                         auto_refresh_token=False).sign_up({"email": "grace@example.com", "password": "correct-horse-1"})
        run = OneShot(env, "login", "--link", "grace@example.com")
        run.child.expect_exact("Paste the link or code mailed to grace@example.com: ")
        [mail] = [m for m in emu.outbox("grace@example.com") if m["kind"] == "magiclink"]
        assert "token=pkce_" in mail["link"]
        r = requests.get(mail["link"], allow_redirects=False, timeout=5)
        location = r.headers["Location"]
        assert "?code=" in location
        run.child.sendline(location)
        run.child.expect_exact("Signed in as grace@example.com")
        assert run.finish() == 0
        assert location not in run.screen.getvalue()
    finally:
        emu.stop()
