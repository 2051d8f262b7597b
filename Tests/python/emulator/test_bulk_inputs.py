"""What a bulk change (`--from FILE`) reads, on the real emulator: an internationalised address is
an account to change in a list and in authsh's own CSV export, as it is for the EMAIL argument of
the same command."""
import json

import pytest

from conftest import start_emulator
from one_shot import authsh, environment

ADDRESS = "jürgen@bücher.example"


@pytest.fixture
def emu():
    started = start_emulator()
    yield started
    started.stop()


def test_an_internationalised_address_from_authshs_own_csv_export(tmp_path, emu):
    env = environment(tmp_path, emu, "firebase", PW="x-pass-123")
    made = authsh(env, "user", "create", ADDRESS, "--password-env", "PW", "--confirmed")
    assert made.returncode == 0, made.stderr
    exported = authsh(env, "user", "export", "--format", "csv", "--filter", "bücher", "--yes")
    assert exported.returncode == 0, exported.stderr
    listing = tmp_path / "uni.csv"
    listing.write_text(exported.stdout)
    dry = authsh(env, "user", "disable", "--from", str(listing), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert f"1/1 would_change {ADDRESS}: Would disable {ADDRESS}." in dry.stderr
    # The same address in a plain list, upper-case and decomposed (NFD) too: one account, as the
    # EMAIL argument takes it.
    decomposed = "ju\u0308rgen@bu\u0308cher.example"
    plain = tmp_path / "uni.txt"
    plain.write_text(f"{ADDRESS}\n{ADDRESS.upper()}\n{decomposed}\n")
    done = authsh(env, "user", "disable", "--from", str(plain), "--yes", "--json")
    assert done.returncode == 0, done.stderr
    batch = json.loads(done.stdout)["batch"]
    assert batch["outcomes"]["changed"] == 1 and batch["outcomes"]["failed"] == 0, batch
    shown = json.loads(authsh(env, "user", "show", ADDRESS, "--json").stdout)
    assert shown["users"][0]["user"]["disabled"] is True
    single = authsh(env, "user", "enable", ADDRESS.upper(), "--yes")
    assert single.returncode == 0, single.stderr


def test_text_no_account_can_have_is_refused_by_the_argument_and_the_list_alike(tmp_path, emu):
    env = environment(tmp_path, emu, "firebase")
    one = authsh(env, "user", "disable", "ada@", "--yes")
    assert one.returncode == 1 and "'ada@' is not an e-mail address. (validation_failed)" in one.stderr.replace("\n  ", " ")
    listing = tmp_path / "bad.txt"
    listing.write_text("ada@\n")
    many = authsh(env, "user", "disable", "--from", str(listing), "--yes")
    assert many.returncode == 1
    assert "1/1 failed ada@: 'ada@' is not an e-mail address." in many.stderr
