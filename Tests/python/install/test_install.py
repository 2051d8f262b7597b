"""scripts/install.sh into a temporary prefix: the installed binary runs with a minimal
environment and no Swift runtime, its man page renders, and the installed completions work
when each shell finds them through its own search path (not by sourcing a file by hand)."""
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pexpect
import pytest

from conftest import ROOT

RELEASE = ROOT / ".build" / "release" / "authsh"


def newest_source_mtime() -> float:
    return max(p.stat().st_mtime for p in (ROOT / "Sources").rglob("*.swift"))


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    """Install once per module; builds the release binary only when it is missing or stale
    (scripts/test.sh builds it before the suite runs)."""
    root = tmp_path_factory.mktemp("prefix")
    args = [str(ROOT / "scripts" / "install.sh"), "--prefix", str(root)]
    if RELEASE.exists() and RELEASE.stat().st_mtime >= newest_source_mtime():
        args.append("--no-build")
    done = subprocess.run(args, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr
    return root


def minimal_env(prefix, home, **extra):
    env = {"PATH": f"{prefix}/bin", "HOME": str(home)}
    env.update(extra)
    return env


def test_layout(prefix):
    for path in ["bin/authsh", "share/man/man1/authsh.1", "share/bash-completion/completions/authsh",
                 "share/zsh/site-functions/_authsh", "share/fish/vendor_completions.d/authsh.fish"]:
        assert (prefix / path).is_file(), path
    assert os.access(prefix / "bin/authsh", os.X_OK)


def test_installed_binary_runs_with_a_minimal_environment(prefix, tmp_path):
    env = minimal_env(prefix, tmp_path)
    version = subprocess.run(["authsh", "--version"], env=env, capture_output=True, text=True, timeout=30)
    assert version.returncode == 0 and version.stdout.startswith("authsh "), version.stderr
    smoke = subprocess.run(["authsh", "run", "--emulator", str(ROOT / "examples" / "smoke.auth")], env=env,
                           capture_output=True, text=True, timeout=120)
    assert smoke.returncode == 0, smoke.stdout + smoke.stderr
    assert re.search(r"\d+ passed, 0 failed", smoke.stdout)


def test_no_swift_runtime_is_needed(prefix):
    dynamic = subprocess.run(["readelf", "-d", str(prefix / "bin/authsh")], capture_output=True, text=True,
                             check=True).stdout
    for line in dynamic.splitlines():
        if "RUNPATH" in line or "RPATH" in line:
            assert "swift" not in line.lower() and "/opt/" not in line, line
    libraries = subprocess.run(["ldd", str(prefix / "bin/authsh")], capture_output=True, text=True, check=True).stdout
    assert "libswiftCore" not in libraries and "libFoundation" not in libraries and "not found" not in libraries


def test_man_page_renders(prefix):
    page = prefix / "share/man/man1/authsh.1"
    done = subprocess.run(["man", "-l", str(page)], capture_output=True, text=True, timeout=30,
                          env={**os.environ, "MANPAGER": "cat", "MANWIDTH": "100"})
    assert done.returncode == 0, done.stderr
    text = re.sub(r".\x08", "", done.stdout)
    for heading in ["NAME", "SYNOPSIS", "COMMANDS", "SCRIPTS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"]:
        assert heading in text
    assert "reset confirm" in text and "--password-env" in text


def test_uninstall_removes_what_install_wrote(tmp_path):
    # A second prefix: the module's installed tree stays for the other tests.
    if not RELEASE.exists():
        pytest.fail("the release binary is missing (the prefix fixture builds it)")
    root = tmp_path / "p"
    subprocess.run([str(ROOT / "scripts" / "install.sh"), "--prefix", str(root), "--no-build"], check=True,
                   capture_output=True)
    subprocess.run([str(ROOT / "scripts" / "install.sh"), "--prefix", str(root), "--uninstall"], check=True,
                   capture_output=True)
    assert [p for p in root.rglob("*") if p.is_file()] == []


# Completions, found the way each shell finds installed completions.

def shell_env(prefix, home):
    return minimal_env(prefix, home, PATH=f"{prefix}/bin:/usr/bin:/bin", TERM="xterm", LANG="C.UTF-8",
                       XDG_DATA_DIRS=f"{prefix}/share", XDG_CONFIG_HOME=str(home / "config"),
                       XDG_STATE_HOME=str(home / "state"))


def test_bash_loads_the_installed_completion_on_demand(prefix, tmp_path):
    loader = Path("/usr/share/bash-completion/bash_completion")
    assert loader.exists(), "bash-completion is not installed (scripts/setup.sh installs it)"
    program = f"""
source {loader}
__load_completion authsh || exit 3
COMP_WORDS=(authsh lo); COMP_CWORD=1; COMP_LINE='authsh lo'; COMP_POINT=9
_authsh
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], env=shell_env(prefix, tmp_path),
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["login", "logout"]


def test_zsh_finds_the_installed_completion_on_its_fpath(prefix, tmp_path):
    child = pexpect.spawn("zsh", ["-f", "-i"], env=shell_env(prefix, tmp_path), encoding="utf-8", timeout=20,
                          dimensions=(40, 200))
    try:
        child.sendline(f"PS1='ready%% '; fpath=({prefix}/share/zsh/site-functions $fpath); autoload -U compinit; "
                       "compinit -u")
        child.expect("ready% ")
        child.send("authsh lo\t\t")
        time.sleep(1.0)
        child.sendcontrol("u")
        child.sendline("echo done-$((6*7))")
        child.expect("done-42")
        screen = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    finally:
        child.sendline("exit")
        child.close(force=True)
    assert re.search(r"login\s+-- Sign in with e-mail and password", screen)


def test_fish_finds_the_installed_completion_through_xdg_data_dirs(prefix, tmp_path):
    # A normal start (HOME is empty): --no-config would also skip the vendor completion path.
    done = subprocess.run(["fish", "-c", "complete -C 'authsh lo'"], env=shell_env(prefix, tmp_path),
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert [row.split("\t")[0] for row in done.stdout.splitlines() if row] == ["login", "logout"]


def test_committed_man_page_equals_generated():
    generated = subprocess.run([str(ROOT / ".build" / "debug" / "authsh"), "__man"], capture_output=True, text=True,
                               check=True).stdout
    committed = (ROOT / "man" / "authsh.1").read_text()
    assert committed == generated, "man/authsh.1 drifted: run .build/debug/authsh __man > man/authsh.1"


def test_man_page_passes_mandoc_lint():
    assert shutil.which("mandoc"), "mandoc is not installed (scripts/setup.sh installs it)"
    done = subprocess.run(["mandoc", "-Tlint", "-W", "warning", str(ROOT / "man" / "authsh.1")], capture_output=True,
                          text=True)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done.stdout + done.stderr
