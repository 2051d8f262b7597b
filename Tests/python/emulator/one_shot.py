"""One-shot authsh against an emulator, for the bulk and import suites: an environment with a
home and state of the test's own and one backend's (or both backends') variables, and the
binary run with no standard input."""
import os
import subprocess

from conftest import authsh_binary


def environment(tmp_path, emu, side="supabase", **extra):
    """`side`: "supabase", "firebase" or "both"."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "NO_COLOR": "1",
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state")}
    if side in ("supabase", "both"):
        env.update(SUPABASE_URL=emu.base, SUPABASE_ANON_KEY=emu.anon_key, SUPABASE_SERVICE_ROLE_KEY=emu.service_role_key)
    if side in ("firebase", "both"):
        env.update(FIREBASE_AUTH_EMULATOR_HOST=emu.host, FIREBASE_API_KEY=emu.api_key, FIREBASE_PROJECT_ID=emu.project)
    env.update(extra)
    return env


def authsh(env, *args, timeout=300):
    return subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=timeout)
