"""Phone sign-in with a one-time code on both backends (issue 38), the code delivered to the
emulator's outbox as the local stacks' test OTPs are:

- Supabase through the official supabase-auth client: `sign_in_with_otp({"phone"})` (`POST /otp`)
  then `verify_otp({"phone", "token", "type": "sms"})` (`POST /verify`), with GoTrue's errors
  (400 for a number that is not E.164, 403 `otp_expired`, 422 `otp_disabled`, 429
  `over_sms_send_rate_limit`) and the password grant with a phone;
- Firebase over REST as the JS SDK calls it (`accounts:sendVerificationCode`,
  `accounts:signInWithPhoneNumber`) and the official emulator's `verificationCodes`, with
  firebase-tools' errors; firebase-admin then finds the account by its number;
- `authsh login --phone … --send-only`, `inbox +1555…`, `login --phone … --code …` and `whoami`."""
import base64
import json

import pytest
import requests
from firebase_admin import auth
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from one_shot import authsh, environment

PHONE = "+15551234567"


def client(emu):
    return SyncGoTrueClient(url=emu.supabase_url, headers={"apikey": emu.anon_key}, persist_session=False,
                            auto_refresh_token=False)


def texted(emu, phone=PHONE, side=None):
    messages = [m for m in emu.outbox(phone) if side is None or m["side"] == side]
    assert messages, f"no text to {phone}"
    assert messages[-1]["kind"] == "sms" and messages[-1]["link"] == ""
    return messages[-1]["code"]


def claims(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


# MARK: - Supabase, the official client


def test_supabase_otp_by_sms_then_verify_signs_a_new_number_up_and_in(emulator):
    gotrue = client(emulator)
    gotrue.sign_in_with_otp({"phone": PHONE})
    code = texted(emulator, side="supabase")
    assert len(code) == 6 and code.isdigit()

    with pytest.raises(AuthApiError) as wrong:
        gotrue.verify_otp({"phone": PHONE, "token": f"{(int(code) + 1) % 1_000_000:06d}", "type": "sms"})
    assert wrong.value.status == 403 and wrong.value.code == "otp_expired"

    signed_in = gotrue.verify_otp({"phone": PHONE, "token": code, "type": "sms"})
    user = signed_in.user
    assert user.phone == "15551234567" and user.phone_confirmed_at is not None and user.email in ("", None)
    assert user.app_metadata["provider"] == "phone" and "phone" in user.app_metadata["providers"]
    assert [i.provider for i in user.identities] == ["phone"]
    token = claims(signed_in.session.access_token)
    assert token["phone"] == "15551234567" and token["amr"][0]["method"] == "otp"

    with pytest.raises(AuthApiError) as used:
        gotrue.verify_otp({"phone": PHONE, "token": code, "type": "sms"})
    assert used.value.code == "otp_expired"


def test_supabase_sms_codes_follow_gotrue_rules(emulator):
    gotrue = client(emulator)
    settings = requests.get(f"{emulator.supabase_url}/settings", timeout=5).json()
    assert settings["external"]["phone"] is True

    with pytest.raises(AuthApiError) as bad:
        gotrue.sign_in_with_otp({"phone": "+0123"})
    assert bad.value.status == 400 and bad.value.message == "Invalid phone number format (E.164 required)"
    with pytest.raises(AuthApiError) as unknown:
        gotrue.sign_in_with_otp({"phone": PHONE, "options": {"should_create_user": False}})
    assert unknown.value.status == 422 and unknown.value.code == "otp_disabled"

    gotrue.sign_in_with_otp({"phone": "+1 555 123 4567"})  # spaces and `+` dropped, as GoTrue does
    with pytest.raises(AuthApiError) as again:
        gotrue.sign_in_with_otp({"phone": PHONE})
    assert again.value.status == 429 and again.value.code == "over_sms_send_rate_limit"
    assert "you can only request this after" in again.value.message
    assert len(emulator.outbox(PHONE)) == 1

    with pytest.raises(AuthApiError) as nobody:
        gotrue.verify_otp({"phone": "+15550000000", "token": "123456", "type": "sms"})
    assert nobody.value.status == 403 and nobody.value.code == "otp_expired"


def test_supabase_password_grant_with_a_phone(emulator):
    admin = SyncGoTrueClient(url=emulator.supabase_url, persist_session=False, auto_refresh_token=False,
                             headers={"apikey": emulator.service_role_key,
                                      "Authorization": f"Bearer {emulator.service_role_key}"}).admin
    admin.create_user({"phone": PHONE, "password": "pw-123456", "phone_confirm": True})
    admin.create_user({"phone": "+15557654321", "password": "pw-123456"})
    gotrue = client(emulator)
    session = gotrue.sign_in_with_password({"phone": PHONE, "password": "pw-123456"}).session
    assert session.user.phone == "15551234567"
    with pytest.raises(AuthApiError) as wrong:
        gotrue.sign_in_with_password({"phone": PHONE, "password": "not-it-1"})
    assert wrong.value.code == "invalid_credentials"
    with pytest.raises(AuthApiError) as unconfirmed:
        gotrue.sign_in_with_password({"phone": "+15557654321", "password": "pw-123456"})
    assert unconfirmed.value.code == "phone_not_confirmed"


def test_supabase_sign_up_with_a_phone_texts_a_code_that_confirms_it(emulator):
    """`sign_up({"phone", "password"})` as GoTrue runs it with phone confirmations on (what
    /settings says): the number is texted a code, the password waits for it, `verify_otp` confirms
    the number, and a second sign-up of a confirmed number is refused."""
    gotrue = client(emulator)
    number = "+15550001111"
    settings = requests.get(f"{emulator.supabase_url}/settings", timeout=5).json()
    assert settings["external"]["phone"] is True and settings["phone_autoconfirm"] is False

    signed_up = gotrue.sign_up({"phone": number, "password": "pw-123456", "options": {"data": {"plan": "pro"}}})
    assert signed_up.session is None
    user = signed_up.user
    assert user.phone == "15550001111" and user.phone_confirmed_at is None and user.email in ("", None)
    assert user.user_metadata == {"plan": "pro"} and user.app_metadata["provider"] == "phone"
    code = texted(emulator, number, side="supabase")

    with pytest.raises(AuthApiError) as unconfirmed:
        gotrue.sign_in_with_password({"phone": number, "password": "pw-123456"})
    assert unconfirmed.value.code == "phone_not_confirmed"
    with pytest.raises(AuthApiError) as too_soon:
        gotrue.resend({"type": "sms", "phone": number})
    assert too_soon.value.status == 429 and too_soon.value.code == "over_sms_send_rate_limit"
    with pytest.raises(AuthApiError) as channel:
        gotrue.sign_up({"phone": "+15550002222", "password": "pw-123456", "options": {"channel": "pigeon"}})
    assert channel.value.status == 400 and "Invalid channel" in channel.value.message

    verified = gotrue.verify_otp({"phone": number, "token": code, "type": "sms"})
    assert verified.session is not None and verified.user.phone_confirmed_at is not None
    session = gotrue.sign_in_with_password({"phone": number, "password": "pw-123456"}).session
    assert session.user.id == user.id

    with pytest.raises(AuthApiError) as again:
        gotrue.sign_up({"phone": number, "password": "other-pw-1"})
    assert again.value.status == 422 and again.value.code == "user_already_exists"
    texts = len(emulator.outbox(number))
    gotrue.resend({"type": "sms", "phone": number})  # confirmed: nothing to send, and {} all the same
    gotrue.resend({"type": "sms", "phone": "+15559990000"})  # nobody: the same answer
    assert len(emulator.outbox(number)) == texts and emulator.outbox("+15559990000") == []


# MARK: - Firebase, REST as the JS SDK calls it


def toolkit(emu, name, body):
    return requests.post(f"{emu.base}/identitytoolkit.googleapis.com/v1/accounts:{name}",
                         params={"key": emu.api_key}, json=body, timeout=5)


def error_message(response):
    assert response.status_code == 400, response.text
    return response.json()["error"]["message"]


def verification_codes(emu):
    r = requests.get(f"{emu.base}/emulator/v1/projects/{emu.project}/verificationCodes", timeout=5)
    r.raise_for_status()
    return r.json()["verificationCodes"]


def test_firebase_phone_sign_in_creates_the_account_then_signs_it_in(emulator, admin_app):
    sent = toolkit(emulator, "sendVerificationCode", {"phoneNumber": PHONE, "recaptchaToken": "ignored"})
    assert sent.status_code == 200, sent.text
    session_info = sent.json()["sessionInfo"]
    [listed] = verification_codes(emulator)
    assert listed["phoneNumber"] == PHONE and listed["sessionInfo"] == session_info
    assert texted(emulator, side="firebase") == listed["code"]

    signed_in = toolkit(emulator, "signInWithPhoneNumber", {"sessionInfo": session_info, "code": listed["code"]})
    assert signed_in.status_code == 200, signed_in.text
    body = signed_in.json()
    assert body["isNewUser"] is True and body["phoneNumber"] == PHONE and body["expiresIn"] == "3600"
    assert body["refreshToken"] and body["localId"]
    token = claims(body["idToken"])
    assert token["phone_number"] == PHONE and token["firebase"]["sign_in_provider"] == "phone"
    assert token["firebase"]["identities"] == {"phone": [PHONE]}
    assert verification_codes(emulator) == []  # a used code is gone

    again = toolkit(emulator, "sendVerificationCode", {"phoneNumber": PHONE}).json()["sessionInfo"]
    code = verification_codes(emulator)[0]["code"]
    second = toolkit(emulator, "signInWithPhoneNumber", {"sessionInfo": again, "code": code}).json()
    assert second["isNewUser"] is False and second["localId"] == body["localId"]
    assert auth.get_user_by_phone_number(PHONE, app=admin_app).uid == body["localId"]


def test_firebase_phone_errors_are_firebase_tools(emulator, admin_app):
    assert error_message(toolkit(emulator, "sendVerificationCode", {})) == "INVALID_PHONE_NUMBER : Invalid format."
    assert error_message(toolkit(emulator, "sendVerificationCode", {"phoneNumber": "5551234567"})) == (
        "INVALID_PHONE_NUMBER : Invalid format.")
    session_info = toolkit(emulator, "sendVerificationCode", {"phoneNumber": PHONE}).json()["sessionInfo"]
    code = verification_codes(emulator)[0]["code"]
    assert error_message(toolkit(emulator, "signInWithPhoneNumber", {"code": code})) == "MISSING_SESSION_INFO"
    assert error_message(toolkit(emulator, "signInWithPhoneNumber", {"sessionInfo": session_info})) == "MISSING_CODE"
    assert error_message(toolkit(emulator, "signInWithPhoneNumber", {"sessionInfo": "nope", "code": code})) == (
        "INVALID_SESSION_INFO")
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    assert error_message(toolkit(emulator, "signInWithPhoneNumber", {"sessionInfo": session_info, "code": wrong})) == (
        "INVALID_CODE")

    made = auth.create_user(phone_number="+15557654321", app=admin_app)
    auth.update_user(made.uid, disabled=True, app=admin_app)
    blocked = toolkit(emulator, "sendVerificationCode", {"phoneNumber": "+15557654321"}).json()["sessionInfo"]
    blocked_code = [c for c in verification_codes(emulator) if c["sessionInfo"] == blocked][0]["code"]
    assert error_message(toolkit(emulator, "signInWithPhoneNumber", {"sessionInfo": blocked,
                                                                     "code": blocked_code})) == "USER_DISABLED"


# MARK: - authsh


@pytest.mark.parametrize("side", ["supabase", "firebase"])
def test_authsh_login_by_phone_one_shot_then_whoami_shows_the_number(emulator, tmp_path, side):
    env = environment(tmp_path, emulator, side)
    sent = authsh(env, "login", "--phone", "+1 555 123 4567", "--send-only")
    assert sent.returncode == 0, sent.stderr
    assert "login --phone +15551234567 --code" in sent.stdout

    inbox = authsh(env, "inbox", PHONE, "--json", "--show-tokens")
    assert inbox.returncode == 0, inbox.stderr
    message = json.loads(inbox.stdout)["inbox"]
    assert message["kind"] == "sms" and message["email"] == PHONE and len(message["code"]) == 6
    assert message["code"] not in authsh(env, "inbox", PHONE).stdout  # shown as *** without --show-tokens

    wrong = authsh(env, "login", "--phone", PHONE, "--code", f"{(int(message['code']) + 1) % 1_000_000:06d}")
    assert wrong.returncode == 1 and "invalid_code" in wrong.stderr, wrong.stderr
    assert "This code is invalid or has expired." in wrong.stderr

    done = authsh({**env, "CODE": message["code"]}, "login", "--phone", PHONE, "--code-env", "CODE", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["ok"] is True and result["user"]["phone"] == PHONE and result["user"]["provider"] == "phone"
    assert message["code"] not in done.stdout + done.stderr

    who = authsh(env, "whoami")
    assert who.returncode == 0, who.stderr
    assert PHONE in who.stdout and "phone" in who.stdout
    status = authsh(env, "status")
    assert PHONE in status.stdout


@pytest.mark.parametrize("side", ["supabase", "firebase"])
def test_authsh_login_by_phone_refuses_what_it_cannot_do(emulator, tmp_path, side):
    env = environment(tmp_path, emulator, side)
    bad = authsh(env, "login", "--phone", "555-1234")
    assert bad.returncode == 64 and "E.164" in bad.stderr
    no_terminal = authsh(env, "login", "--phone", PHONE)
    assert no_terminal.returncode == 64 and "--send-only" in no_terminal.stderr and "--code" in no_terminal.stderr
    assert emulator.outbox(PHONE) == []  # nothing was texted
    both = authsh(env, "login", "ada@example.com", "--phone", PHONE, "--code", "123456")
    assert both.returncode == 64
    no_text = authsh(env, "inbox", PHONE)
    assert no_text.returncode == 1 and "No code texted to +15551234567" in no_text.stderr


def test_an_auth_script_signs_in_by_phone(emulator, tmp_path):
    script = tmp_path / "phone.auth"
    script.write_text(
        'test "phone sign-in"\n'
        "login --phone +15551234567 --send-only\n"
        "inbox +15551234567\n"
        'assert inbox.kind == "sms"\n'
        "login --phone +15551234567 --code {{inbox.code}}\n"
        "whoami\n"
        'assert user.phone == "+15551234567"\n')
    for side in ("supabase", "firebase"):
        (tmp_path / side).mkdir()
        env = environment(tmp_path / side, emulator, side)
        run = authsh(env, "run", str(script))
        assert run.returncode == 0, run.stdout + run.stderr


# MARK: - Supabase, changing the number of an account (PUT /user, then /verify type phone_change)


def test_supabase_phone_change_waits_for_the_code_texted_to_the_new_number(emulator):
    gotrue = client(emulator)
    gotrue.sign_in_with_otp({"phone": PHONE})
    session = gotrue.verify_otp({"phone": PHONE, "token": texted(emulator, side="supabase"), "type": "sms"}).session
    headers = {"apikey": emulator.anon_key, "Authorization": f"Bearer {session.access_token}"}
    new = "+15557654321"

    bad = requests.put(f"{emulator.supabase_url}/user", json={"phone": "+0123"}, headers=headers, timeout=5)
    assert bad.status_code == 400 and bad.json()["msg"] == "Invalid phone number format (E.164 required)"

    asked = requests.put(f"{emulator.supabase_url}/user", json={"phone": new}, headers=headers, timeout=5)
    assert asked.status_code == 200, asked.text
    assert asked.json()["phone"] == "15551234567" and asked.json()["new_phone"] == "15557654321"
    assert asked.json()["phone_change_sent_at"]
    message = emulator.outbox(new)[-1]
    assert message["kind"] == "phone_change" and len(message["code"]) == 6
    again = requests.put(f"{emulator.supabase_url}/user", json={"phone": new}, headers=headers, timeout=5)
    assert again.status_code == 429 and again.json()["error_code"] == "over_sms_send_rate_limit"

    with pytest.raises(AuthApiError) as wrong:
        gotrue.verify_otp({"phone": new, "token": f"{(int(message['code']) + 1) % 1_000_000:06d}",
                           "type": "phone_change"})
    assert wrong.value.status == 403 and wrong.value.code == "otp_expired"
    changed = gotrue.verify_otp({"phone": new, "token": message["code"], "type": "phone_change"}).user
    assert changed.phone == "15557654321" and changed.phone_confirmed_at is not None
    assert changed.new_phone in (None, "")
    phone_identity = next(i for i in changed.identities if i.provider == "phone")
    assert phone_identity.identity_data["phone"] == "15557654321"

    # The old number is free again, and the new one is taken.
    gotrue.sign_in_with_otp({"phone": PHONE})
    other = gotrue.verify_otp({"phone": PHONE, "token": texted(emulator, side="supabase"), "type": "sms"}).session
    taken = requests.put(f"{emulator.supabase_url}/user", json={"phone": new},
                         headers={"apikey": emulator.anon_key, "Authorization": f"Bearer {other.access_token}"},
                         timeout=5)
    assert taken.status_code == 422 and taken.json()["error_code"] == "phone_exists"
