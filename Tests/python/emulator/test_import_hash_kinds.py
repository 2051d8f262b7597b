"""Every hash kind firebase-admin's import_users sends (HMAC_*, MD5, SHA*, PBKDF*, STANDARD_SCRYPT),
computed here with hashlib/hmac as the Admin SDKs' own integration tests compute them against
production: the account imports, its old password signs in, a wrong one does not, and the first
sign-in rehashes it to the project's scrypt. Federated providerUserInfo entries are kept, and
addresses production refuses are refused."""
import hashlib
import hmac

import pytest
import requests
from firebase_admin import auth

from hashes import b64decode, firebase_scrypt, hash_config

KEY = {"key": "fake-api-key"}
PASSWORD = "old-legacy-pw"
SALT = b"NaCl-per-user"
SIGNER = b"legacy-signer-key"


def sign_in(emu, email, password):
    return requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword", params=KEY,
                         json={"email": email, "password": password, "returnSecureToken": True}, timeout=10)


def repeated(name, rounds):
    value = hashlib.new(name, SALT + PASSWORD.encode()).digest()
    for _ in range(max(rounds, 1) - 1):
        value = hashlib.new(name, value).digest()
    return value


KINDS = {
    "hmac_sha256": (auth.UserImportHash.hmac_sha256(SIGNER), hmac.new(SIGNER, PASSWORD.encode() + SALT, "sha256").digest()),
    "hmac_sha512": (auth.UserImportHash.hmac_sha512(SIGNER), hmac.new(SIGNER, PASSWORD.encode() + SALT, "sha512").digest()),
    "hmac_sha1": (auth.UserImportHash.hmac_sha1(SIGNER), hmac.new(SIGNER, PASSWORD.encode() + SALT, "sha1").digest()),
    "hmac_md5": (auth.UserImportHash.hmac_md5(SIGNER), hmac.new(SIGNER, PASSWORD.encode() + SALT, "md5").digest()),
    "md5": (auth.UserImportHash.md5(0), repeated("md5", 0)),
    "sha1": (auth.UserImportHash.sha1(3), repeated("sha1", 3)),
    "sha256": (auth.UserImportHash.sha256(1), repeated("sha256", 1)),
    "sha512": (auth.UserImportHash.sha512(50), repeated("sha512", 50)),
    "pbkdf_sha1": (auth.UserImportHash.pbkdf_sha1(1000), hashlib.pbkdf2_hmac("sha1", PASSWORD.encode(), SALT, 1000, 20)),
    "pbkdf2_sha256": (auth.UserImportHash.pbkdf2_sha256(10000),
                      hashlib.pbkdf2_hmac("sha256", PASSWORD.encode(), SALT, 10000, 64)),
    "standard_scrypt": (auth.UserImportHash.standard_scrypt(memory_cost=1024, parallelization=2, block_size=8,
                                                            derived_key_length=64),
                        hashlib.scrypt(PASSWORD.encode(), salt=SALT, n=1024, r=8, p=2, dklen=64)),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_hash_kind_imports_and_its_password_signs_in(emulator, admin_app, kind):
    algorithm, digest = KINDS[kind]
    email = f"{kind}@legacy.example"
    record = auth.ImportUserRecord(uid=f"legacy-{kind}", email=email, password_hash=digest, password_salt=SALT)
    result = auth.import_users([record], hash_alg=algorithm, app=admin_app)
    assert result.success_count == 1, [e.reason for e in result.errors]

    wrong = sign_in(emulator, email, PASSWORD + "x")
    assert wrong.status_code == 400 and wrong.json()["error"]["message"] in ("INVALID_PASSWORD", "INVALID_LOGIN_CREDENTIALS")
    assert sign_in(emulator, email, PASSWORD).status_code == 200
    # The first sign-in moved it to the project's own scrypt: an export now carries it.
    listed = next(u for u in auth.list_users(app=admin_app).iterate_all() if u.uid == record.uid)
    assert b64decode(listed.password_hash) == firebase_scrypt(PASSWORD, b64decode(listed.password_salt),
                                                              hash_config(emulator))
    assert sign_in(emulator, email, PASSWORD).status_code == 200


def test_the_salt_and_password_order_can_be_given(emulator):
    digest = hmac.new(SIGNER, SALT + PASSWORD.encode(), "sha256").digest()
    body = {"hashAlgorithm": "HMAC_SHA256", "signerKey": b64(SIGNER), "passwordHashOrder": "SALT_AND_PASSWORD",
            "users": [{"localId": "ordered", "email": "ordered@legacy.example", "passwordHash": b64(digest),
                       "salt": b64(SALT)}]}
    created = admin_post(emulator, "accounts:batchCreate", body)
    assert created.status_code == 200 and created.json().get("error", []) == []
    assert sign_in(emulator, "ordered@legacy.example", PASSWORD).status_code == 200


def test_hash_parameters_are_checked_as_production_checks_them(emulator):
    entry = {"localId": "p", "email": "p@legacy.example", "passwordHash": b64(b"x" * 32), "salt": b64(SALT)}
    for fields, message in [({"hashAlgorithm": "HMAC_SHA256"}, "MISSING_SIGNER_KEY"),
                            ({"hashAlgorithm": "SHA256", "rounds": 9000}, "INVALID_ROUNDS"),
                            ({"hashAlgorithm": "PBKDF2_SHA256", "rounds": 200000}, "INVALID_ROUNDS"),
                            ({"hashAlgorithm": "ARGON3"}, "Unsupported hash algorithm ARGON3")]:
        answer = admin_post(emulator, "accounts:batchCreate", {**fields, "users": [entry]})
        assert answer.status_code == 400 and answer.json()["error"]["message"].startswith(message), fields


def test_federated_provider_entries_are_kept_and_show_in_lookups(emulator, admin_app):
    record = auth.ImportUserRecord(
        uid="social-1", email="social@legacy.example", email_verified=True,
        provider_data=[auth.UserProvider(uid="g-123", provider_id="google.com", email="social@gmail.example",
                                         display_name="Soc Ial"),
                       auth.UserProvider(uid="gh-9", provider_id="github.com")])
    result = auth.import_users([record], app=admin_app)
    assert result.success_count == 1, [e.reason for e in result.errors]
    user = auth.get_user("social-1", app=admin_app)
    providers = {p.provider_id: p for p in user.provider_data}
    assert set(providers) == {"google.com", "github.com"}
    assert providers["google.com"].uid == "g-123" and providers["google.com"].display_name == "Soc Ial"

    # The same provider account on a second person is refused for that person only.
    again = auth.import_users([auth.ImportUserRecord(uid="social-2", email="other@legacy.example",
                                                     provider_data=[auth.UserProvider(uid="g-123",
                                                                                      provider_id="google.com")]),
                               auth.ImportUserRecord(uid="plain-3", email="plain@legacy.example")], app=admin_app)
    assert again.success_count == 1 and [e.index for e in again.errors] == [0]
    assert "DUPLICATE_RAW_ID" in again.errors[0].reason


@pytest.mark.parametrize("email", ["nul\x00@legacy.example", "bad\ufffd@legacy.example",
                                   "x" * 100_000 + "@legacy.example"])
def test_addresses_production_refuses_are_refused(emulator, email):
    answer = admin_post(emulator, "accounts:batchCreate", {"users": [{"localId": "bad-address", "email": email}]})
    assert answer.status_code == 200
    assert [e["message"] for e in answer.json()["error"]] == ["email is invalid"]


def b64(data):
    import base64
    return base64.urlsafe_b64encode(data).decode()


def admin_post(emu, method, body):
    return requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/projects/{emu.project}/{method}",
                         headers={"Authorization": "Bearer owner"}, json=body, timeout=30)


def test_user_import_carries_a_legacy_hmac_hash_into_firebase_and_holds_it_back_from_supabase(emulator, tmp_path):
    """A legacy system's accounts in Firebase's JSON format with HMAC_SHA256 hashes, as a person
    prepares them for `firebase auth:import`: authsh sends them with their parameters; GoTrue
    cannot check that kind, so the Supabase import holds them back instead of creating them
    password-less."""
    import json
    from one_shot import authsh, environment
    people = {f"hmac{i}@legacy.example": f"legacy-password-{i}" for i in range(3)}
    users = [{"localId": f"hmac-{i}", "email": email, "emailVerified": True,
              "passwordHash": b64(hmac.new(SIGNER, password.encode() + SALT, "sha256").digest()), "salt": b64(SALT)}
             for i, (email, password) in enumerate(people.items())]
    (tmp_path / "legacy.json").write_text(json.dumps({"users": users}))
    (tmp_path / "hmac.json").write_text(json.dumps({"algorithm": "HMAC_SHA256", "signerKey": b64(SIGNER)}))
    env = environment(tmp_path, emulator, "both")
    args = ["user", "import", str(tmp_path / "legacy.json"), "--hash-config", str(tmp_path / "hmac.json")]

    held = authsh(env, *args, "--provider", "supabase", "--yes", "--json")
    assert held.returncode == 1, held.stdout + held.stderr
    counts = json.loads(held.stdout)["import"]
    assert counts["held_back"] == 3 and counts["imported"] == 0
    assert "Supabase cannot check HMAC_SHA256 hashes" in json.loads(held.stdout)["output"]

    done = authsh(env, *args, "--provider", "firebase", "--yes", "--json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["import"]["imported"] == 3
    for email, password in people.items():
        assert sign_in(emulator, email, password).status_code == 200
        assert sign_in(emulator, email, password + "!").status_code == 400
