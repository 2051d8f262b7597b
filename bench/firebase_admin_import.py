"""What a person would write to import a Firebase CLI export with the Admin SDK: read the export,
build ImportUserRecords, import_users in batches of 1,000. bench/import_scale.py times it from the
start of its process, beside `authsh user import` of the same kind of file.

Usage: python bench/firebase_admin_import.py HOST:PORT PROJECT EXPORT.json HASH-CONFIG.json
       python bench/firebase_admin_import.py HOST:PORT PROJECT ACCOUNTS.jsonl --bcrypt
         (authsh's JSONL with bcrypt hashes, as bench/import_bench.py writes it)
"""
import base64
import json
import os
import sys
import uuid

import firebase_admin
from firebase_admin import auth


def main():
    host, project, export, hash_file = sys.argv[1:5]
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = host
    app = firebase_admin.initialize_app(options={"projectId": project}, name=f"import-{uuid.uuid4()}")
    if hash_file == "--bcrypt":
        with open(export) as lines:
            users = [auth.ImportUserRecord(uid=r["id"], email=r["email"], email_verified=r.get("email_verified", False),
                                           password_hash=r["password_hash"].encode()) for r in map(json.loads, lines)]
        sys.exit(upload(users, auth.UserImportHash.bcrypt(), app))
    with open(hash_file) as source:
        config = json.load(source)
    algorithm = auth.UserImportHash.scrypt(key=base64.b64decode(config["signerKey"]), rounds=config["rounds"],
                                           memory_cost=config["memoryCost"],
                                           salt_separator=base64.b64decode(config["saltSeparator"]))
    with open(export) as source:
        records = json.load(source)["users"]
    users = [auth.ImportUserRecord(uid=r["localId"], email=r.get("email"), email_verified=r.get("emailVerified", False),
                                   display_name=r.get("displayName"),
                                   password_hash=base64.b64decode(r["passwordHash"]),
                                   password_salt=base64.b64decode(r["salt"])) for r in records]
    sys.exit(upload(users, algorithm, app))


def upload(users, algorithm, app):
    failed = 0
    for index in range(0, len(users), 1000):
        failed += auth.import_users(users[index:index + 1000], hash_alg=algorithm, app=app).failure_count
    return 1 if failed else 0


if __name__ == "__main__":
    main()
