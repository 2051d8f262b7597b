"""The committed bash/zsh/fish completion scripts: no drift from `authsh completion SHELL`, and
each runs in the real shell and offers the right commands, flags and values (issue 4)."""
import os
import re
import subprocess
import time
from pathlib import Path

import pexpect
import pytest

from conftest import ROOT, authsh_binary

SCRIPTS = {"bash": "authsh.bash", "zsh": "_authsh", "fish": "authsh.fish"}
CONFIG = """default_profile = "staging"

[profiles.staging]
provider = "supabase"
url = "https://abcd.supabase.co"
key_env = "STAGING_ANON_KEY"

[profiles.mobile]
provider = "firebase"
key_env = "FIREBASE_API_KEY"
"""


@pytest.fixture
def env(tmp_path):
    (tmp_path / "config" / "authsh").mkdir(parents=True)
    (tmp_path / "config" / "authsh" / "config.toml").write_text(CONFIG)
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "smoke.auth").write_text("whoami\n")
    (tmp_path / "work" / "notes.txt").write_text("")
    e = {k: v for k, v in os.environ.items() if not k.startswith(("SUPABASE_", "FIREBASE_", "AUTHSH_", "XDG_"))}
    e.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"),
             PATH=str(Path(authsh_binary()).parent) + os.pathsep + os.environ["PATH"], TERM="xterm", LANG="C.UTF-8")
    return e


@pytest.mark.parametrize("shell", SCRIPTS)
def test_committed_script_equals_generated(shell):
    generated = subprocess.run([authsh_binary(), "completion", shell], capture_output=True, text=True, check=True).stdout
    committed = (ROOT / "completions" / SCRIPTS[shell]).read_text()
    assert committed == generated, f"completions/{SCRIPTS[shell]} drifted: run scripts/install-completions.sh --generate"


def test_unknown_shell_is_a_usage_error():
    done = subprocess.run([authsh_binary(), "completion", "tcsh"], capture_output=True, text=True)
    assert done.returncode == 64
    # The supported shells are listed; tcsh is not "corrected" to bash.
    assert "bash, zsh, fish" in done.stderr and "did you mean" not in done.stderr


def test_callback_is_offline_and_writes_nothing(env, tmp_path):
    out = subprocess.run([authsh_binary(), "__complete", "bash", "2", "--", "authsh", "--profile", ""], env=env,
                         capture_output=True, text=True, check=True, cwd=tmp_path / "work").stdout
    assert out.splitlines() == ["mobile\tprofile", "staging\tprofile"]
    assert not (tmp_path / "state").exists()


# bash: the function runs in real bash with COMP_WORDS/COMP_CWORD as readline would set them.

def bash_complete(env, words, cword=None, cwd=None):
    cword = len(words) - 1 if cword is None else cword
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    line = " ".join(words)
    program = f"""
source '{ROOT / "completions" / "authsh.bash"}'
complete -p authsh >/dev/null || exit 3
COMP_WORDS=({quoted}); COMP_CWORD={cword}; COMP_LINE='{line}'; COMP_POINT={len(line)}
_authsh
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], env=env, capture_output=True, text=True,
                          timeout=20, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line]


def test_bash_commands_flags_and_values(env, tmp_path):
    assert bash_complete(env, ["authsh", "lo"]) == ["login", "logout"]
    assert "completion" in bash_complete(env, ["authsh", ""])
    assert bash_complete(env, ["authsh", "login", "--pa"]) == ["--password", "--password-env", "--password-stdin"]
    assert bash_complete(env, ["authsh", "--provider", ""]) == ["supabase", "firebase"]
    assert bash_complete(env, ["authsh", "whoami", "--provider", "f"]) == ["firebase"]
    assert bash_complete(env, ["authsh", "logout", "--scope", "=", "gl"]) == ["global"]
    assert bash_complete(env, ["authsh", "logout", "--scope", "="]) == ["local", "global", "others"]
    assert bash_complete(env, ["authsh", "--profile", ""]) == ["mobile", "staging"]
    assert bash_complete(env, ["authsh", "completion", ""]) == ["bash", "zsh", "fish"]
    assert bash_complete(env, ["authsh", "run", ""], cwd=tmp_path / "work") == ["smoke.auth"]


# zsh: the real completion system, driven through a pty.

def zsh_listing(env, typed):
    child = pexpect.spawn("zsh", ["-f", "-i"], env=env, encoding="utf-8", timeout=10, dimensions=(40, 200))
    try:
        child.sendline(f"PS1='ready%% '; fpath=({ROOT / 'completions'} $fpath); autoload -U compinit; compinit -u")
        child.expect("ready% ")
        child.send(typed + "\t\t")
        time.sleep(1.0)
        child.sendcontrol("u")
        child.sendline("echo done-$((6*7))")
        child.expect("done-42")
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    finally:
        child.sendline("exit")
        child.close(force=True)


def test_zsh_commands(env):
    screen = zsh_listing(env, "authsh lo")
    assert re.search(r"login\s+-- Sign in with e-mail and password", screen)
    assert re.search(r"logout\s+-- Sign out and forget the session", screen)


def test_zsh_flags(env):
    screen = zsh_listing(env, "authsh login --pa")
    assert "--password-env" in screen and "--password-stdin" in screen


def test_zsh_provider_values(env):
    screen = zsh_listing(env, "authsh --provider ")
    assert re.search(r"firebase\s+supabase|supabase\s+firebase", screen)


# fish: `complete -C` asks fish's own completion machinery.

def fish_complete(env, line, cwd=None):
    script = ROOT / "completions" / "authsh.fish"
    done = subprocess.run(["fish", "--no-config", "-c", f"source '{script}'; complete -C '{line}'"], env=env,
                          capture_output=True, text=True, timeout=20, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return [row.split("\t")[0] for row in done.stdout.splitlines() if row]


def test_fish_commands_flags_and_values(env, tmp_path):
    assert fish_complete(env, "authsh lo") == ["login", "logout"]
    assert fish_complete(env, "authsh login --pa") == ["--password", "--password-env", "--password-stdin"]
    assert sorted(fish_complete(env, "authsh --provider ")) == ["firebase", "supabase"]
    assert fish_complete(env, "authsh logout --scope g") == ["global"]
    assert sorted(fish_complete(env, "authsh --profile ")) == ["mobile", "staging"]
    assert fish_complete(env, "authsh run ", cwd=tmp_path / "work") == ["smoke.auth"]


def test_install_script_user_paths(env, tmp_path):
    done = subprocess.run([str(ROOT / "scripts" / "install-completions.sh"), "--user"], env=env, capture_output=True,
                          text=True, check=True)
    assert "installed bash completion" in done.stdout
    # bash reads that directory only through the bash-completion package: the installer says so.
    assert "bash-completion package" in done.stdout and "~/.bashrc" in done.stdout
    targets = {
        "bash": tmp_path / ".local/share/bash-completion/completions/authsh",
        "zsh": tmp_path / ".local/share/zsh/site-functions/_authsh",
        "fish": tmp_path / ".local/share/fish/vendor_completions.d/authsh.fish",
    }
    for shell, target in targets.items():
        assert target.read_text() == (ROOT / "completions" / SCRIPTS[shell]).read_text()


# `--flag=<Tab>` at any position, the first word included (issue 48), and groups described as
# groups, not by their first command.

def test_bash_flag_equals_completes_as_the_first_word(env):
    assert bash_complete(env, ["authsh", "--profile", "="]) == ["mobile", "staging"]
    assert bash_complete(env, ["authsh", "--profile", "=", "st"]) == ["staging"]
    assert bash_complete(env, ["authsh", "--color", "="]) == ["auto", "always", "never"]
    assert bash_complete(env, ["authsh", "--provider", "=", "f"]) == ["firebase"]
    assert bash_complete(env, ["authsh", "--json", "--profile", "="]) == ["mobile", "staging"]
    assert bash_complete(env, ["authsh", "whoami", "--profile", "="]) == ["mobile", "staging"]


def test_zsh_flag_equals_completes_as_the_first_word(env):
    screen = zsh_listing(env, "authsh --profile=")
    assert "mobile" in screen and "staging" in screen
    screen = zsh_listing(env, "authsh --color=")
    assert "always" in screen and "never" in screen
    screen = zsh_listing(env, "authsh --provider=")
    assert "firebase" in screen and "supabase" in screen


def test_fish_flag_equals_completes_as_the_first_word(env):
    assert sorted(fish_complete(env, "authsh --profile=")) == ["--profile=mobile", "--profile=staging"]
    assert sorted(fish_complete(env, "authsh --color=")) == ["--color=always", "--color=auto", "--color=never"]
    assert fish_complete(env, "authsh --provider=f") == ["--provider=firebase"]


def fish_described(env, line):
    script = ROOT / "completions" / "authsh.fish"
    done = subprocess.run(["fish", "--no-config", "-c", f"source '{script}'; complete -C '{line}'"], env=env,
                          capture_output=True, text=True, timeout=20)
    assert done.returncode == 0, done.stderr
    return dict(row.split("\t", 1) for row in done.stdout.splitlines() if "\t" in row)


def test_groups_have_descriptions_of_their_own(env):
    described = fish_described(env, "authsh ")
    assert described["mfa"].startswith("Your own second factors")
    assert described["user"].startswith("Support: show, list")
    assert "Enroll" not in described["mfa"] and "Show" not in described["user"]
    screen = zsh_listing(env, "authsh ")
    assert re.search(r"mfa\s+-- Your own second factors", screen)
    assert re.search(r"user\s+-- Support: show, list", screen)
