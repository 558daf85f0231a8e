"""The HTTP adapter against a local receiver: status, snippet, timeout, refused connection; and
the address it connects to: resolved once, checked, pinned (SSRF), with the host name kept for the
Host header, SNI and the certificate check. Names resolve through a stub: no network."""

from __future__ import annotations

import datetime
import functools
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests

from models.external.partner_endpoints.http_adapter import HttpPartnerEndpoints
from tests.support.receiver import LocalReceiver

# Sandbox and test: local receivers are allowed.
LOCAL = functools.partial(HttpPartnerEndpoints, public_only=False)


class StubResolver:
    """Answers from a table and records the questions; a missing name does not resolve. With
    ``later``, every question after the first is answered with it (DNS rebinding)."""

    def __init__(self, table: dict[str, list[str]], *, later: list[str] | None = None) -> None:
        self.table = table
        self.later = later
        self.asked: list[str] = []

    def __call__(self, host: str, port: int) -> list[str]:
        self.asked.append(host)
        if host not in self.table:
            raise OSError(f"{host} does not resolve")
        return self.later if self.later is not None and len(self.asked) > 1 else self.table[host]


def _stopped_after(make):
    """A fixture's body: ``start(**kwargs)`` makes a running server; every one is stopped after."""
    servers = []

    def start(**kwargs):
        servers.append(make(**kwargs))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def local():
    yield from _stopped_after(lambda **kwargs: LocalReceiver(**kwargs).start())


def test_a_2xx_is_ok_and_the_body_and_headers_arrive_unchanged(local):
    server = local()
    response = LOCAL().post(server.url(), b'{"a":1}', {"X-Test": "yes"}, timeout=2)
    assert (response.ok, response.status_code, response.snippet) == (True, 200, '{"received":true}')
    assert server.received[0].body == b'{"a":1}' and server.received[0].headers["X-Test"] == "yes"


def test_a_4xx_is_reported_as_not_ok(local):
    response = LOCAL().post(local(default=404).url(), b"{}", {}, timeout=2)
    assert (response.ok, response.status_code, response.error) == (False, 404, None)


def test_the_snippet_is_truncated(local):
    response = LOCAL(snippet_chars=5).post(local().url(), b"{}", {}, timeout=2)
    assert response.snippet == '{"rec'


def test_a_slow_answer_is_a_timeout(local):
    response = LOCAL().post(local(delay=0.5).url(), b"{}", {}, timeout=0.2)
    assert (response.status_code, response.error) == (None, "timeout after 0.2s")


def test_a_closed_port_is_a_connection_error(local):
    server = local()
    url = server.url()
    server.stop()
    response = LOCAL().post(url, b"{}", {}, timeout=1)
    assert response.status_code is None and response.error.startswith("connection error")


@pytest.mark.parametrize(
    "answers",
    [
        ["10.0.0.7"],  # private
        ["127.0.0.1"],  # loopback
        ["169.254.169.254"],  # link-local (cloud metadata)
        ["100.64.0.9"],  # shared address space (carrier-grade NAT)
        ["::1"],
        ["fd00::1"],  # unique local
        ["::ffff:10.0.0.7"],  # IPv4-mapped private
        ["64:ff9b::a00:7"],  # NAT64 of 10.0.0.7
        ["8.8.8.8", "10.0.0.7"],  # one public answer does not excuse a private one
    ],
)
def test_outside_the_sandbox_a_non_public_answer_is_refused_without_connecting(answers):
    resolver = StubResolver({"hooks.partner.example": answers})
    sender = HttpPartnerEndpoints(public_only=True, resolver=resolver)
    response = sender.post("https://hooks.partner.example/hook", b"{}", {}, timeout=1)
    assert response.status_code is None
    assert response.error == "refused URL: resolves to a private, loopback or otherwise non-public address"
    assert resolver.asked == ["hooks.partner.example"]


def test_outside_the_sandbox_an_unresolvable_host_is_refused():
    sender = HttpPartnerEndpoints(public_only=True, resolver=StubResolver({}))
    response = sender.post("https://nowhere.partner.example/hook", b"{}", {}, timeout=1)
    assert (response.status_code, response.error) == (None, "refused URL: does not resolve")


def test_the_host_is_resolved_once_and_the_checked_address_is_the_one_connected_to(local):
    # Given a name that only the stub resolves (the system resolver would fail on .invalid), and a
    # stub that would answer something else if asked again (DNS rebinding)
    server = local()
    resolver = StubResolver({"partner.invalid": ["127.0.0.1"]}, later=["10.0.0.7"])
    port = server.url().split(":")[2].split("/")[0]
    # When the sender posts to it
    response = LOCAL(resolver=resolver).post(f"http://partner.invalid:{port}/hook", b"{}", {}, timeout=2)
    # Then it asked once, connected to that answer, and the request still names the host
    assert (response.status_code, resolver.asked) == (200, ["partner.invalid"])
    assert server.received[0].headers["Host"] == f"partner.invalid:{port}"


class _TlsServer:
    """HTTPS on 127.0.0.1 with a certificate for ``partner.test`` only; records SNI and Host."""

    def __init__(self, certificate: str, key: str) -> None:
        self.seen: dict[str, str | None] = {}
        seen = self.seen

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                seen["host"] = self.headers.get("Host")
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)

        def remember_sni(sock, name, ctx):
            seen["sni"] = name

        context.sni_callback = remember_sni
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.server.handle_error = lambda request, address: None  # a refused handshake is expected
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def partner_certificate(tmp_path):
    """A self-signed certificate naming partner.test (and not 127.0.0.1)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "partner.test")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("partner.test")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    server = _TlsServer(str(cert_path), str(key_path))
    yield server, str(cert_path)
    server.stop()


def test_over_tls_the_pinned_connection_keeps_the_host_name_for_sni_host_and_certificate(partner_certificate):
    server, ca = partner_certificate
    sender = LOCAL(resolver=StubResolver({"partner.test": ["127.0.0.1"]}), verify=ca)
    response = sender.post(f"https://partner.test:{server.port}/hook", b"{}", {}, timeout=3)
    assert (response.status_code, response.error) == (204, None)
    assert server.seen == {"sni": "partner.test", "host": f"partner.test:{server.port}"}


def test_over_tls_a_certificate_for_another_name_is_refused(partner_certificate):
    # The same server reached under a name its certificate does not carry
    server, ca = partner_certificate
    sender = LOCAL(resolver=StubResolver({"other.test": ["127.0.0.1"]}), verify=ca)
    response = sender.post(f"https://other.test:{server.port}/hook", b"{}", {}, timeout=3)
    assert response.status_code is None and response.error.startswith("certificate error")


class _KeepAliveServer:
    """HTTP/1.1 on 127.0.0.1 that keeps connections open; records each request's client port, path
    and headers, and answers ``answer`` (the body) with its length."""

    def __init__(self, answer: bytes = b"ok", status: int = 200, headers: dict[str, str] | None = None) -> None:
        self.seen: list[tuple[int, str, dict[str, str]]] = []
        seen = self.seen

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                seen.append((self.client_address[1], self.path, dict(self.headers)))
                self.send_response(status)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def keep_alive():
    yield from _stopped_after(_KeepAliveServer)


def test_partners_receive_the_same_request_headers_as_before(keep_alive):
    # The headers requests added to every POST (the adapter used it until urllib3 was used directly)
    server = keep_alive()
    LOCAL().post(server.url(), b'{"a":1}', {"Content-Type": "application/json", "X-Test": "yes"}, timeout=2)
    (_, _, headers) = server.seen[0]
    assert {name: headers[name] for name in ("User-Agent", "Accept-Encoding", "Accept", "Connection")} == {
        "User-Agent": requests.utils.default_headers()["User-Agent"],
        "Accept-Encoding": "gzip, deflate",
        "Accept": "*/*",
        "Connection": "keep-alive",
    }
    assert (headers["Content-Type"], headers["X-Test"], headers["Content-Length"]) == ("application/json", "yes", "7")
    assert headers["Host"] == f"127.0.0.1:{server.port}"


def test_a_short_answer_leaves_the_connection_open_for_the_next_post(keep_alive):
    server = keep_alive()
    sender = LOCAL()
    for _ in range(3):
        assert sender.post(server.url(), b"{}", {}, timeout=2).status_code == 200
    assert len({port for port, _, _ in server.seen}) == 1


def test_an_answer_longer_than_the_snippet_closes_its_connection_and_the_next_post_opens_one(keep_alive):
    server = keep_alive(answer=b"x" * 5000)
    sender = LOCAL(snippet_chars=10)
    first = sender.post(server.url(), b"{}", {}, timeout=2)
    second = sender.post(server.url(), b"{}", {}, timeout=2)
    assert (first.status_code, first.snippet, second.status_code) == (200, "x" * 10, 200)
    assert len({port for port, _, _ in server.seen}) == 2


def test_a_redirect_is_reported_not_followed_and_the_query_string_is_kept(keep_alive):
    server = keep_alive(status=302, headers={"Location": "http://127.0.0.1:9/elsewhere"})
    response = LOCAL().post(server.url("/hook?partner=a&x=1"), b"{}", {}, timeout=2)
    assert (response.ok, response.status_code, response.error) == (False, 302, None)
    assert [path for _, path, _ in server.seen] == ["/hook?partner=a&x=1"]


def test_a_url_that_is_not_http_is_a_request_error():
    response = LOCAL().post("ftp://partner.example/hook", b"{}", {}, timeout=1)
    assert response.status_code is None and response.error.startswith("request error: not an absolute http(s) URL")
