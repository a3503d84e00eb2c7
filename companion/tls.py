"""TLS for the HTTPS run mode (the live camera needs a secure page): a self-signed
certificate, and the server's context, which bounds each connection's handshake."""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
import ssl
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def ensure_certificate(folder: Path, addresses: list[str]) -> tuple[Path, Path]:
    """The certificate and key in `folder`, made on first use for this machine's names and
    addresses (and made again when an address is new)."""
    folder.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    wanted = {"127.0.0.1", *addresses}
    if cert_path.exists() and key_path.exists():
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        have = {str(ip) for ip in names.get_values_for_type(x509.IPAddress)}
        if wanted <= have and cert.not_valid_after_utc > dt.datetime.now(dt.UTC):
            return cert_path, key_path
    key = ec.generate_private_key(ec.SECP256R1())
    host = socket.gethostname()
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, f"Dune companion on {host}")])
    now = dt.datetime.now(dt.UTC)
    alt = [x509.DNSName("localhost"), x509.DNSName(host)] + [
        x509.IPAddress(ipaddress.ip_address(a)) for a in sorted(wanted)
    ]
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=825))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    key_path.chmod(0o600)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


class BoundedWaitsSocket(ssl.SSLSocket):
    """A server connection whose every wait for the client is bounded: the handshake by
    the context's handshake_seconds, each later read by its read_seconds (gunicorn sets
    its sockets blocking, with no limit). A client gone silent ends like one that hung
    up (an EOF: gunicorn closes the connection quietly), and frees its server thread."""

    context: BoundedWaitsContext

    def do_handshake(self, block: bool = False) -> None:
        try:
            super().do_handshake(block)
        except TimeoutError as silent:
            raise ssl.SSLEOFError(ssl.SSL_ERROR_EOF, "silent during the handshake") from silent
        self.settimeout(self.context.read_seconds)

    def read(self, len: int = 1024, buffer: Any = None) -> Any:
        try:
            return super().read(len, buffer)
        except TimeoutError as silent:
            raise ssl.SSLEOFError(ssl.SSL_ERROR_EOF, "silent during a request") from silent

    def setblocking(self, flag: bool) -> None:
        if flag:
            self.settimeout(self.context.read_seconds)
        else:
            super().setblocking(False)


class BoundedWaitsContext(ssl.SSLContext):
    """A server context whose connections wait for their client a bounded time: a
    tablet gone mid-handshake or mid-request frees its thread instead of holding it."""

    sslsocket_class = BoundedWaitsSocket
    handshake_seconds: float = 5.0
    read_seconds: float = 30.0

    def wrap_socket(self, sock: socket.socket, *args: Any, **kwargs: Any) -> ssl.SSLSocket:
        sock.settimeout(self.handshake_seconds)
        return super().wrap_socket(sock, *args, **kwargs)


def server_context(
    cert: Path, key: Path, handshake_seconds: float, read_seconds: float
) -> ssl.SSLContext:
    """The TLS context to serve `cert` with (TLS 1.2 or later)."""
    context = BoundedWaitsContext(ssl.PROTOCOL_TLS_SERVER)
    context.handshake_seconds = handshake_seconds
    context.read_seconds = read_seconds
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context
