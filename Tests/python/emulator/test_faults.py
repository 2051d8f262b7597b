"""Fault injection (`/emulator/v1/faults`, `--fault`, `--latency-ms`) through real HTTP."""
import time

import pytest
import requests

DATED = {"X-Supabase-Api-Version": "2024-01-01"}


def faults_url(emu):
    return f"{emu.base}/emulator/v1/faults"


def put(emu, *faults):
    r = requests.put(faults_url(emu), json={"faults": list(faults)}, timeout=5)
    assert r.status_code == 200, r.text
    return r.json()


def health(emu, **kwargs):
    return requests.get(f"{emu.supabase_url}/health", timeout=5, **kwargs)


def test_presets(emulator):
    put(emulator, {"path": "/auth/v1/health", "preset": "html502"})
    r = health(emulator)
    assert r.status_code == 502 and r.headers["Content-Type"].startswith("text/html") and "502 Bad Gateway" in r.text

    put(emulator, {"path": "/auth/v1/health", "preset": "truncated_json"})
    r = health(emulator)
    assert r.status_code == 200 and r.headers["Content-Type"] == "application/json"
    with pytest.raises(ValueError):
        r.json()

    put(emulator, {"path": "/auth/v1/health", "preset": "drop"})
    with pytest.raises(requests.ConnectionError):
        health(emulator)

    put(emulator, {"method": "POST", "path": "/auth/v1/token", "preset": "rate_limit"})
    r = requests.post(f"{emulator.supabase_url}/token?grant_type=password", json={}, headers=DATED, timeout=5)
    assert r.status_code == 429
    assert r.json() == {"code": "over_request_rate_limit", "message": "Request rate limit reached"}
    assert r.headers["x-sb-error-code"] == "over_request_rate_limit" and "Retry-After" not in r.headers

    put(emulator, {"path": "/auth/v1/health", "preset": "server_error"})
    r = health(emulator)
    assert r.status_code == 500 and r.json()["error_code"] == "unexpected_failure"
    assert health(emulator).status_code == 200  # every fault above was used up


def test_status_body_headers_and_times(emulator):
    put(emulator, {"method": "POST", "path": "/auth/v1/token", "times": 2, "status": 429,
                   "headers": {"Retry-After": "30"}, "json": {"code": "over_request_rate_limit", "message": "slow"}})
    url = f"{emulator.supabase_url}/token?grant_type=password"
    body = {"email": "nobody@example.com", "password": "whatever-1"}
    assert requests.get(faults_url(emulator), timeout=5).json()["faults"][0]["times"] == 2
    for _ in range(2):
        r = requests.post(url, json=body, timeout=5)
        assert r.status_code == 429 and r.headers["Retry-After"] == "30" and r.json()["message"] == "slow"
    assert requests.post(url, json=body, timeout=5).status_code == 400  # served normally again
    assert requests.get(faults_url(emulator), timeout=5).json() == {"faults": []}

    # Only the method and path named match; a raw body keeps its text.
    put(emulator, {"method": "GET", "path": "/auth/v1/settings", "status": 503, "body": "maintenance", "times": 0})
    assert requests.post(url, json=body, timeout=5).status_code == 400
    for _ in range(3):
        r = requests.get(f"{emulator.supabase_url}/settings", timeout=5)
        assert (r.status_code, r.text) == (503, "maintenance")
    assert requests.delete(faults_url(emulator), timeout=5).json() == {"faults": []}
    assert requests.get(f"{emulator.supabase_url}/settings", timeout=5).status_code == 200


def test_post_appends_and_bad_faults_are_refused(emulator):
    r = requests.post(faults_url(emulator), json={"path": "/auth/v1/settings", "status": 500}, timeout=5)
    assert len(r.json()["faults"]) == 1
    r = requests.post(faults_url(emulator), json={"path": "/auth/v1/user", "preset": "drop"}, timeout=5)
    assert [f.get("preset") for f in r.json()["faults"]] == [None, "drop"]
    bad = requests.put(faults_url(emulator), json={"faults": [{"preset": "teapot"}]}, timeout=5)
    assert bad.status_code == 400 and "teapot" in bad.json()["error"]
    assert len(requests.get(faults_url(emulator), timeout=5).json()["faults"]) == 2


def test_latency(emulator):
    put(emulator, {"path": "/auth/v1/health", "latency_ms": 300})
    start = time.monotonic()
    r = health(emulator)
    assert r.status_code == 200 and r.json()["name"] == "GoTrue"
    assert time.monotonic() - start >= 0.3
    assert health(emulator).status_code == 200  # `times` defaults to 1: the next answer is normal


def test_flags(emulator_factory):
    emu = emulator_factory("--latency-ms", "150", "--fault", "POST /auth/v1/token 503x2", "--fault",
                           "GET /auth/v1/settings html502")
    url = f"{emu.supabase_url}/token?grant_type=password"
    start = time.monotonic()
    assert requests.post(url, json={}, timeout=5).status_code == 503
    assert time.monotonic() - start >= 0.15
    assert requests.post(url, json={}, timeout=5).status_code == 503
    assert requests.post(url, json={}, timeout=5).status_code == 400
    assert requests.get(f"{emu.supabase_url}/settings", timeout=5).status_code == 502
    assert requests.get(f"{emu.supabase_url}/settings", timeout=5).status_code == 200
