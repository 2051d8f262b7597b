"""The `$fbscrypt$` strings `user export` writes for Firebase accounts verify the accounts' own
passwords the way GoTrue checks them (internal/crypto: scrypt with N = 2^n over salt+separator,
then AES-256-CTR of the signer key): read from the golden export of the recorded production pages
(Tests/CLITests/Snapshots/user-export-firebase.jsonl; their hashes were made from these passwords)."""
import base64
import hashlib
import json
import re
from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

GOLDEN = Path(__file__).resolve().parents[2] / "CLITests" / "Snapshots" / "user-export-firebase.jsonl"
PASSWORDS = {"ada@example.com": "ada-firebase-1", "linus@example.org": "linus-firebase-2"}
PATTERN = re.compile(r"^\$fbscrypt\$v=1,n=(\d+),r=(\d+),p=(\d+),ss=([^,]+),sk=([^$]+)\$([^$]+)\$(.+)$")


def verifies(password: str, hash_text: str) -> bool:
    n, r, p, ss, sk, salt, digest = PATTERN.match(hash_text).groups()
    separator, signer, salt, digest = (base64.b64decode(x, validate=True) for x in (ss, sk, salt, digest))
    key = hashlib.scrypt(password.encode(), salt=salt + separator, n=1 << int(n), r=int(r), p=int(p), dklen=32,
                         maxmem=1 << 26)
    encryptor = Cipher(algorithms.AES(key), modes.CTR(b"\0" * 16)).encryptor()
    return encryptor.update(signer) + encryptor.finalize() == digest


def test_exported_firebase_hashes_verify_their_passwords_as_gotrue_does():
    records = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    checked = 0
    for record in records:
        password = PASSWORDS.get(record["email"])
        if password is None:
            assert record["password_hash"] is None
            continue
        assert verifies(password, record["password_hash"])
        assert not verifies(password + "x", record["password_hash"])
        checked += 1
    assert checked == 2
