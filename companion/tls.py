"""TLS for the HTTPS run mode (the live camera needs a secure page): a self-signed
certificate. The TLS front that serves it is companion.tls_front."""

from __future__ import annotations

import datetime as dt
import ipaddress
import socket
from pathlib import Path

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
