"""Firebase's modified scrypt in plain Python (hashlib.scrypt + AES-256-CTR from `cryptography`),
to check the emulator's hashes independently, and the v2 hash config of an emulator project."""
import base64
import hashlib

import requests
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes


def b64decode(text: str) -> bytes:
    """Base64 in either alphabet, padded or not (the Admin SDKs send URL-safe base64)."""
    text = text.replace("-", "+").replace("_", "/")
    return base64.b64decode(text + "=" * (-len(text) % 4))


def firebase_scrypt(password: str, salt: bytes, config: dict) -> bytes:
    key = hashlib.scrypt(password.encode(), salt=salt + b64decode(config["saltSeparator"]),
                         n=2 ** config["memoryCost"], r=config["rounds"], p=1, dklen=32, maxmem=2 ** 28)
    encryptor = Cipher(algorithms.AES(key), modes.CTR(b"\0" * 16)).encryptor()
    return encryptor.update(b64decode(config["signerKey"])) + encryptor.finalize()


def hash_config(emu) -> dict:
    r = requests.get(f"{emu.base}/identitytoolkit.googleapis.com/v2/projects/{emu.project}/config",
                     headers={"Authorization": "Bearer owner"}, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()["signIn"]["hashConfig"]


def fbscrypt_string(config: dict, salt: bytes, hashed: bytes) -> str:
    """The `password_hash` string GoTrue takes (`n` is log2 of scrypt's N: Firebase's memoryCost)."""
    ss = base64.b64encode(b64decode(config["saltSeparator"])).decode()
    sk = base64.b64encode(b64decode(config["signerKey"])).decode()
    return (f"$fbscrypt$v=1,n={config['memoryCost']},r={config['rounds']},p=1,ss={ss},sk={sk}"
            f"${base64.b64encode(salt).decode()}${base64.b64encode(hashed).decode()}")
