"""`user export` to standard output whose reader stops early (`| head -1`), on the real emulator:
the reader chose to stop, so authsh says nothing about it (docs/exit-codes-and-json.md, exit codes:
74, silent)."""
import json
import subprocess

from conftest import authsh_binary, start_emulator
from one_shot import environment


def test_an_export_piped_into_head_is_silent(tmp_path):
    seed = tmp_path / "seed.jsonl"
    # Far more than a pipe holds, so the export is still writing when head has gone.
    seed.write_text("".join(json.dumps({"backend": "supabase", "email": f"many{n:05d}@example.com",
                                        "name": "x" * 200}) + "\n" for n in range(3000)))
    emu = start_emulator("--seed", str(seed))
    try:
        env = environment(tmp_path, emu, SUPABASE_SERVICE_ROLE_KEY=emu.service_role_key)
        done = subprocess.run(["bash", "-o", "pipefail", "-c", f"'{authsh_binary()}' user export --yes | head -1"],
                              env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
        assert json.loads(done.stdout)["email"].startswith("many")
        assert done.returncode == 74, done.stderr
        assert "Stopped after" not in done.stderr and "nobody reads" not in done.stderr, done.stderr
        assert "error" not in done.stderr, done.stderr
    finally:
        emu.stop()
