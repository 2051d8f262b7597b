"""https:// through libcurl, which authsh loads on the first TLS request: a TLS front (Python's ssl
module, a certificate made here for 127.0.0.1) before the emulator, so signup, login and whoami
cross a real TLS handshake. SSL_CERT_FILE names the CA to trust; without it the self-signed
certificate is refused with a clear error. Plain http:// runs and `--version` never map libcurl."""
import socket
import ssl
import subprocess
import threading
from pathlib import Path

import pytest

from certificates import self_signed
from conftest import authsh_binary, user_env

PASSWORD = "tls-secret-horse-4417"


def relay(client, upstream):
    """Copies bytes both ways until either side closes, then closes both."""

    def pump(source, target):
        try:
            while data := source.recv(65536):
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    threading.Thread(target=pump, args=(upstream, client), daemon=True).start()
    pump(client, upstream)


class LoopbackServer:
    """Accepts connections on a free loopback port, each served by `serve` on a thread of its own."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(client,), daemon=True).start()

    def serve(self, client):
        raise NotImplementedError

    def close(self):
        self.listener.close()


class TLSFront(LoopbackServer):
    """Terminates TLS on a loopback port and relays the bytes to the emulator's plain port."""

    def __init__(self, cert: Path, key: Path, backend_port: int):
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(cert, key)
        self.backend_port = backend_port
        self.handshakes = 0
        super().__init__()

    def serve(self, client):
        try:
            tls = self.context.wrap_socket(client, server_side=True)
        except (ssl.SSLError, OSError):
            client.close()  # an untrusting client hangs up during the handshake
            return
        self.handshakes += 1
        relay(tls, socket.create_connection(("127.0.0.1", self.backend_port)))


@pytest.fixture
def tls_front(emulator, tmp_path):
    cert, key = self_signed(tmp_path, "authsh test")
    front = TLSFront(cert, key, emulator.port)
    yield front, cert
    front.close()


def run(args, env):
    return subprocess.run([authsh_binary(), *args], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60)


def https_env(tmp_path, emulator, front, **extra):
    return user_env(tmp_path / "home", SUPABASE_URL=f"https://127.0.0.1:{front.port}",
                    SUPABASE_ANON_KEY=emulator.anon_key, AUTHSH_CREDENTIAL_STORE="file", PW=PASSWORD, **extra)


def test_signup_login_and_whoami_cross_tls_with_the_ca_from_ssl_cert_file(emulator, tls_front, tmp_path):
    front, cert = tls_front
    env = https_env(tmp_path, emulator, front, SSL_CERT_FILE=str(cert))
    for args in (["signup", "ada@example.com", "--name", "Ada", "--password-env", "PW"],
                 ["login", "ada@example.com", "--password-env", "PW"], ["whoami"]):
        result = run(args, env)
        assert result.returncode == 0, f"{args}: {result.stdout}{result.stderr}"
        assert PASSWORD not in result.stdout + result.stderr
    assert "ada@example.com" in result.stdout
    assert front.handshakes >= 1


def test_an_untrusted_certificate_is_refused_with_the_reason(emulator, tls_front, tmp_path):
    front, _ = tls_front
    result = run(["login", "ada@example.com", "--password-env", "PW"], https_env(tmp_path, emulator, front))
    assert result.returncode == 3, result.stdout + result.stderr
    assert "network_unreachable" in result.stderr
    assert "certificate" in result.stderr.lower(), result.stderr
    assert PASSWORD not in result.stdout + result.stderr
    assert front.handshakes == 0


def loaded_libraries(args, env) -> str:
    """The dynamic loader's own account of the files it maps (LD_DEBUG=files)."""
    result = subprocess.run([authsh_binary(), *args], env={**env, "LD_DEBUG": "files"}, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=60)
    return result.stderr


def test_libcurl_is_mapped_only_when_a_request_is_https(emulator, tls_front, tmp_path):
    front, cert = tls_front
    plain = user_env(tmp_path / "plain", emulator, AUTHSH_CREDENTIAL_STORE="file")
    assert "libcurl" not in loaded_libraries(["--version"], plain)
    assert "libcurl" not in loaded_libraries(["user", "show", "nobody@example.com"],
                                             {**plain, "SUPABASE_SERVICE_ROLE_KEY": emulator.service_role_key})
    https = https_env(tmp_path, emulator, front, SSL_CERT_FILE=str(cert))
    assert "libcurl" in loaded_libraries(["login", "ada@example.com", "--password-env", "PW"], https)


class ConnectProxy(LoopbackServer):
    """An HTTP CONNECT proxy (what https_proxy names): records each CONNECT target and tunnels it."""

    def __init__(self):
        self.targets = []
        super().__init__()

    def serve(self, client):
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(4096)
            if not chunk:
                client.close()
                return
            head += chunk
        method, target = head.split(b" ")[:2]
        self.targets.append(f"{method.decode()} {target.decode()}")
        host, port = target.decode().rsplit(":", 1)
        upstream = socket.create_connection((host, int(port)))
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        relay(client, upstream)


def test_https_proxy_is_honoured_as_curl_honours_it(emulator, tls_front, tmp_path):
    front, cert = tls_front
    proxy = ConnectProxy()
    try:
        env = https_env(tmp_path, emulator, front, SSL_CERT_FILE=str(cert), https_proxy=f"http://127.0.0.1:{proxy.port}")
        result = run(["signup", "ada@example.com", "--name", "Ada", "--password-env", "PW"], env)
        assert result.returncode == 0, result.stdout + result.stderr
        assert proxy.targets == [f"CONNECT 127.0.0.1:{front.port}"]
        # no_proxy exempts a host, as curl's own tools read it.
        result = run(["login", "ada@example.com", "--password-env", "PW"], {**env, "no_proxy": "127.0.0.1"})
        assert result.returncode == 0, result.stdout + result.stderr
        assert len(proxy.targets) == 1
    finally:
        proxy.close()


def test_a_proxy_that_cannot_be_reached_is_named_not_called_no_internet(emulator, tls_front, tmp_path):
    front, cert = tls_front
    env = https_env(tmp_path, emulator, front, SSL_CERT_FILE=str(cert), https_proxy="http://proxy.authsh-test.invalid:3128")
    result = run(["login", "ada@example.com", "--password-env", "PW"], env)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "network_unreachable" in result.stderr
    assert f"Could not reach 127.0.0.1:{front.port}" in result.stderr, result.stderr
    assert "proxy" in result.stderr.lower(), result.stderr
    assert "No internet connection" not in result.stderr
    assert PASSWORD not in result.stdout + result.stderr
