"""The emulator's password hashes checked with independent code and the official clients:
Firebase's modified scrypt (hashlib), firebase-admin's import_users (SCRYPT, BCRYPT), and
GoTrue's `password_hash` strings through supabase-auth."""
import base64

import bcrypt
import pytest
import requests
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from hashes import b64decode, fbscrypt_string, firebase_scrypt, hash_config

KEY = {"key": "fake-api-key"}


def firebase_sign_in(emu, email, password):
    return requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword", params=KEY,
                         json={"email": email, "password": password, "returnSecureToken": True}, timeout=10)


def supabase_client(emu):
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": emu.anon_key},
                            persist_session=False, auto_refresh_token=False)


def supabase_admin(emu):
    return SyncGoTrueClient(url=emu.supabase_url,
                            headers={"apikey": emu.service_role_key, "Authorization": f"Bearer {emu.service_role_key}"},
                            persist_session=False, auto_refresh_token=False).admin


def test_firebase_hashes_are_firebase_scrypt_as_hashlib_computes_it(emulator, admin_app):
    config = hash_config(emulator)
    assert config["algorithm"] == "SCRYPT" and config["rounds"] == 4 and config["memoryCost"] == 8
    assert len(b64decode(config["signerKey"])) == 64
    user = auth.create_user(email="h@x.io", password="hash-me-please", app=admin_app)
    listed = next(u for u in auth.list_users(app=admin_app).iterate_all() if u.uid == user.uid)
    assert b64decode(listed.password_hash) == firebase_scrypt("hash-me-please", b64decode(listed.password_salt), config)
    assert b64decode(listed.password_hash) != firebase_scrypt("hash-me-pleas", b64decode(listed.password_salt), config)


def test_firebase_admin_import_users_scrypt_and_bcrypt_sign_in(emulator, admin_app):
    # Production-cost parameters from another project (rounds 8, memoryCost 14).
    signer = bytes(range(64))
    other = {"signerKey": base64.b64encode(signer).decode(), "saltSeparator": "Bw==", "rounds": 8, "memoryCost": 14}
    salt = b"per-user-salt"
    scrypted = auth.ImportUserRecord(uid="s-1", email="scrypt@x.io", password_hash=firebase_scrypt("old-scrypt-pw", salt, other),
                                     password_salt=salt)
    result = auth.import_users([scrypted], hash_alg=auth.UserImportHash.scrypt(
        key=signer, rounds=8, memory_cost=14, salt_separator=b"\x07"), app=admin_app)
    assert result.success_count == 1, [e.reason for e in result.errors]
    hashed = bcrypt.hashpw(b"old-bcrypt-pw", bcrypt.gensalt(rounds=4))
    result = auth.import_users([auth.ImportUserRecord(uid="b-1", email="bcrypt@x.io", password_hash=hashed)],
                               hash_alg=auth.UserImportHash.bcrypt(), app=admin_app)
    assert result.success_count == 1, [e.reason for e in result.errors]

    assert firebase_sign_in(emulator, "scrypt@x.io", "wrong").json()["error"]["message"] in ("INVALID_PASSWORD", "INVALID_LOGIN_CREDENTIALS")
    for email, password in [("scrypt@x.io", "old-scrypt-pw"), ("bcrypt@x.io", "old-bcrypt-pw")]:
        assert firebase_sign_in(emulator, email, password).status_code == 200
    # Rehashed to the project's own scrypt on that first sign-in: now it can be exported.
    config = hash_config(emulator)
    for uid, password in [("s-1", "old-scrypt-pw"), ("b-1", "old-bcrypt-pw")]:
        user = auth.get_user(uid, app=admin_app)
        listed = next(u for u in auth.list_users(app=admin_app).iterate_all() if u.uid == uid)
        assert b64decode(listed.password_hash) == firebase_scrypt(password, b64decode(listed.password_salt), config)
        assert user.email.endswith("@x.io")
        assert firebase_sign_in(emulator, user.email, password).status_code == 200


def test_supabase_takes_firebase_scrypt_and_bcrypt_hashes(emulator):
    other = {"signerKey": base64.b64encode(bytes(range(64))).decode(), "saltSeparator": "Bw==", "rounds": 8, "memoryCost": 14}
    salt = b"salty"
    admin = supabase_admin(emulator)
    admin.create_user({"email": "fb@x.io", "email_confirm": True,
                       "password_hash": fbscrypt_string(other, salt, firebase_scrypt("from-firebase", salt, other))})
    admin.create_user({"email": "bc@x.io", "email_confirm": True,
                       "password_hash": bcrypt.hashpw(b"from-bcrypt", bcrypt.gensalt(rounds=4)).decode()})
    client = supabase_client(emulator)
    assert client.sign_in_with_password({"email": "fb@x.io", "password": "from-firebase"}).user.email == "fb@x.io"
    assert client.sign_in_with_password({"email": "bc@x.io", "password": "from-bcrypt"}).user.email == "bc@x.io"
    with pytest.raises(AuthApiError) as info:
        client.sign_in_with_password({"email": "fb@x.io", "password": "from-firebas"})
    assert info.value.code == "invalid_credentials"

    admin.create_user({"email": "ar@x.io", "email_confirm": True,
                       "password_hash": "$argon2id$v=19$m=16,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"})
    # Checked as GoTrue checks it (a wrong password is a wrong password).
    with pytest.raises(AuthApiError) as info:
        client.sign_in_with_password({"email": "ar@x.io", "password": "anything"})
    assert info.value.code == "invalid_credentials"

    with pytest.raises(AuthApiError) as info:
        admin.create_user({"email": "bad@x.io", "password_hash": "$fbscrypt$v=2,n=14,r=8,p=1$AAAA$AAAA"})
    assert info.value.status == 500 and info.value.message == "Error creating user"


@pytest.mark.parametrize("hashed", [
    # GoTrue's own test vectors (internal/crypto/password_test.go): both hash "test".
    "$argon2i$v=19$m=16,t=2,p=1$bGJRWThNOHJJTVBSdHl2dQ$NfEnUOuUpb7F2fQkgFUG4g",
    "$argon2id$v=19$m=32,t=3,p=2$SFVpOWJ0eXhjRzVkdGN1RQ$RXnb8rh7LaDcn07xsssqqulZYXOM/EUCEFMVcAcyYVk",
])
def test_supabase_checks_argon2_hashes_as_gotrue_does(emulator, hashed):
    supabase_admin(emulator).create_user({"email": "argon@x.io", "password_hash": hashed, "email_confirm": True})
    client = supabase_client(emulator)
    assert client.sign_in_with_password({"email": "argon@x.io", "password": "test"}).user.email == "argon@x.io"
    with pytest.raises(AuthApiError) as wrong:
        client.sign_in_with_password({"email": "argon@x.io", "password": "test1"})
    assert wrong.value.code == "invalid_credentials"
