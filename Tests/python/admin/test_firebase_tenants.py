"""Identity Platform tenants: the official `firebase_admin` tenant API (`tenant_mgt`) against
`authsh emulator`, and `authsh --tenant` reaching the tenant's users (so `diagnose` finds them)."""
import json
import os
import subprocess
import uuid

import firebase_admin
import google.auth.credentials
import pytest
import requests
from firebase_admin import auth, credentials, tenant_mgt

from conftest import authsh_binary


class OwnerCredential(credentials.Base):
    """What firebase_admin hands an emulator (`Bearer owner`), for its tenant-management service,
    which takes the app's credential rather than the emulator's."""

    def get_credential(self):
        return firebase_admin._utils.EmulatorAdminCredentials()


@pytest.fixture
def tenant_app(emulator, monkeypatch):
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", emulator.host)
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    # The tenant-management service always talks to identitytoolkit.googleapis.com (it has no
    # emulator switch): point its base at the emulator's v2.
    monkeypatch.setattr(tenant_mgt._TenantManagementService, "TENANT_MGT_URL",
                        f"http://{emulator.host}/identitytoolkit.googleapis.com/v2")
    app = firebase_admin.initialize_app(OwnerCredential(), options={"projectId": emulator.project},
                                        name=f"tenants-{uuid.uuid4()}")
    yield app
    firebase_admin.delete_app(app)


def authsh(emulator, tmp_path, *args):
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state"),
        "FIREBASE_AUTH_EMULATOR_HOST": emulator.host, "FIREBASE_API_KEY": emulator.api_key,
        "FIREBASE_PROJECT_ID": emulator.project,
    }
    done = subprocess.run([authsh_binary(), *args, "--json"], env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.strip(), f"no JSON from authsh {args}: {done.stderr}"
    return done.returncode, json.loads(done.stdout)


def test_tenant_management_and_tenant_scoped_users(emulator, tenant_app):
    tenant = tenant_mgt.create_tenant("Shop-EU", allow_password_sign_up=True, app=tenant_app)
    assert tenant.display_name == "Shop-EU" and tenant.allow_password_sign_up and not tenant.enable_email_link_sign_in
    assert tenant_mgt.get_tenant(tenant.tenant_id, app=tenant_app).display_name == "Shop-EU"
    updated = tenant_mgt.update_tenant(tenant.tenant_id, enable_email_link_sign_in=True, app=tenant_app)
    assert updated.enable_email_link_sign_in and updated.allow_password_sign_up
    other = tenant_mgt.create_tenant("Shop-US", app=tenant_app)
    assert {t.tenant_id for t in tenant_mgt.list_tenants(app=tenant_app).iterate_all()} == {tenant.tenant_id, other.tenant_id}

    client = tenant_mgt.auth_for_tenant(tenant.tenant_id, app=tenant_app)
    user = client.create_user(email="ada@example.com", password="correct-horse-1")
    assert user.tenant_id == tenant.tenant_id
    assert client.get_user_by_email("ada@example.com").uid == user.uid
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("ada@example.com", app=tenant_app)  # the project's own users
    assert [u.uid for u in client.list_users().iterate_all()] == [user.uid]
    link = client.generate_password_reset_link("ada@example.com")
    assert f"tenantId={tenant.tenant_id}" in link

    tenant_mgt.delete_tenant(other.tenant_id, app=tenant_app)
    with pytest.raises(tenant_mgt.TenantNotFoundError):
        tenant_mgt.get_tenant(other.tenant_id, app=tenant_app)


def test_authsh_tenant_reaches_the_tenants_users(emulator, tenant_app, tmp_path):
    tenant = tenant_mgt.create_tenant("Shop-EU", allow_password_sign_up=True, app=tenant_app)
    client = tenant_mgt.auth_for_tenant(tenant.tenant_id, app=tenant_app)
    user = client.create_user(email="bob@example.com", password="correct-horse-1", email_verified=True, disabled=True)

    status, without = authsh(emulator, tmp_path, "diagnose", "bob@example.com")
    assert [f["code"] for f in without["diagnosis"]["findings"]] == ["no_account"]
    status, found = authsh(emulator, tmp_path, "--tenant", tenant.tenant_id, "diagnose", "bob@example.com")
    assert [f["code"] for f in found["diagnosis"]["findings"]] == ["disabled"], found
    status, shown = authsh(emulator, tmp_path, "user", "show", "bob@example.com", "--tenant", tenant.tenant_id)
    assert status == 0 and shown["user"]["id"] == user.uid  # `--tenant` after the command works too
    status, enabled = authsh(emulator, tmp_path, "--tenant", tenant.tenant_id, "user", "enable", "bob@example.com")
    assert status == 0, enabled
    assert client.get_user(user.uid).disabled is False
    # The client side: a tenant user's sign-in, with tenantId on the call.
    status, login = authsh(emulator, tmp_path, "--tenant", tenant.tenant_id, "login", "bob@example.com",
                           "--password", "correct-horse-1")
    assert status == 0, login
    r = requests.post(f"{emulator.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                      params={"key": "k"}, json={"email": "bob@example.com", "password": "correct-horse-1"}, timeout=5)
    assert r.json()["error"]["message"] == "EMAIL_NOT_FOUND"  # not a user of the project itself
