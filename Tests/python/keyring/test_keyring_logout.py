"""`logout` never reports success while the server session or the keyring item remains (issue 37):
with the session's tokens in GNOME Keyring and the D-Bus session taken away (the bus address
pointing nowhere, or no bus at all), logout says the keyring cannot be reached, changes nothing,
exits 75 and names what to do; back where the keyring is, the session still works and logout
then ends it on the server and removes the item."""
import json

import pytest

from test_keyring_sessions import authsh, environment, item_of, secret_tool, session_files, sign_in, without_bus


def bus_nowhere(env, tmp_path):
    return {**env, "DBUS_SESSION_BUS_ADDRESS": f"unix:path={tmp_path}/no-such-bus"}


@pytest.mark.parametrize("provider", ["supabase", "firebase"])
@pytest.mark.parametrize("away", ["nowhere", "unset"])
def test_logout_without_the_keyring_changes_nothing_and_exits_75(tmp_path, emulator, provider, away):
    env = environment(tmp_path, emulator, provider)
    _, tokens = sign_in(env)
    [path] = session_files(tmp_path)
    assert tokens["refresh_token"] in item_of(path).stdout

    cut = bus_nowhere(env, tmp_path) if away == "nowhere" else without_bus(env)
    refused = authsh(cut, "logout")
    assert refused.returncode == 75, refused.stdout + refused.stderr
    assert "Removed" not in refused.stdout + refused.stderr and "Signed out" not in refused.stdout
    assert "Not signed out" in refused.stderr and "keyring" in refused.stderr
    assert "authsh user signout ada@example.com" in refused.stderr  # what to do instead
    assert "(keyring_unavailable)" in refused.stderr
    as_json = json.loads(authsh(cut, "logout", "--json").stdout)
    assert as_json["ok"] is False and as_json["error"]["code"] == "keyring_unavailable"

    # Nothing changed: the item is there, and where the keyring is the session still refreshes.
    assert tokens["refresh_token"] in item_of(path).stdout
    assert json.loads(path.read_text())["session"]["tokens_in"] == "keyring"
    assert authsh(env, "refresh").returncode == 0
    assert authsh(env, "whoami").returncode == 0

    done = authsh(env, "logout")
    assert done.returncode == 0, done.stderr
    listed = secret_tool("search", "--all", "service", "authsh", "kind", "session")
    assert f"attribute.file = {path}" not in listed.stderr, "the item is gone"
    assert authsh(env, "whoami").returncode == 4


@pytest.mark.parametrize("provider", ["supabase", "firebase"])
def test_status_and_whoami_say_the_session_is_in_a_keyring_out_of_reach(tmp_path, emulator, provider):
    env = environment(tmp_path, emulator, provider)
    sign_in(env)
    [path] = session_files(tmp_path)
    here = authsh(env, "status", "--json")
    assert json.loads(here.stdout)["status"]["session_readable"] is True

    cut = without_bus(env)
    status = authsh(cut, "status", "--json")
    assert status.returncode == 0, status.stderr
    shown = json.loads(status.stdout)["status"]
    assert shown["session_store"] == "keyring" and shown["session_readable"] is False
    assert shown["session_unreadable"].startswith("the keyring cannot be reached here: ")
    assert str(path) in shown["session_location"]
    human = authsh(cut, "status")
    assert "readable" in human.stdout and "the keyring cannot be reached here" in human.stdout

    who = authsh(cut, "whoami")
    assert who.returncode == 75, who.stdout + who.stderr
    assert "the keyring cannot be reached here" in who.stderr
    assert 'credential_store = "auto"' not in who.stderr
