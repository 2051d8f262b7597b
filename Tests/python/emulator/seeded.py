"""Emulators of their own for the bulk suites: started with `--seed`, stopped when the test ends
(the `emulators` fixture: append each one started)."""
import json

import pytest

from conftest import start_emulator


@pytest.fixture
def emulators():
    started = []
    yield started
    for emu in started:
        emu.stop()


def seeded_records(tmp_path, records, *flags):
    """An emulator whose accounts are `records` (the `--seed` file's lines)."""
    seed = tmp_path / "seed.jsonl"
    seed.write_text("".join(json.dumps(r) + "\n" for r in records))
    return start_emulator("--seed", str(seed), *flags)


def unconfirmed(emails, backend="supabase"):
    """Seed records of accounts that exist and are not confirmed."""
    return [{"backend": backend, "email": e, "confirmed": False} for e in emails]
