"""Partners and credentials: creation, secret rotation, verification and sandbox seeding."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from models.db.database import db
from models.db.partners import WEBHOOK_AUTH_MODES, Partner, PartnerCredential
from models.domain.clock import now

SANDBOX_PARTNERS = (
    dict(
        code="PARTNER_A",
        name="Sandbox Partner A",
        client_id="sandbox-partner-a",
        secret="sandbox-secret-a",
        insurance_enabled=True,
        recontracting_enabled=True,
    ),
    dict(
        code="PARTNER_B",
        name="Sandbox Partner B",
        client_id="sandbox-partner-b",
        secret="sandbox-secret-b",
        insurance_enabled=False,
        recontracting_enabled=False,
    ),
)

_SCRYPT = dict(n=2**14, r=8, p=1, dklen=32)


def hash_secret(secret: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(secret.encode(), salt=salt, **_SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def secret_matches(secret: str, stored: str) -> bool:
    try:
        scheme, salt_hex, digest_hex = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    digest = hashlib.scrypt(secret.encode(), salt=bytes.fromhex(salt_hex), **_SCRYPT)
    return hmac.compare_digest(digest.hex(), digest_hex)


@dataclass(frozen=True)
class IssuedCredential:
    client_id: str
    client_secret: str  # shown once, stored only as a hash
    environment: str


def new_signing_secret() -> str:
    return secrets.token_hex(32)


def create_partner(
    code: str, name: str, environment: str, *, client_id: str | None = None, client_secret: str | None = None, **fields
) -> tuple[Partner, IssuedCredential]:
    with db.atomic():
        partner = Partner.create(code=code, name=name, webhook_signing_secret=new_signing_secret(), **fields)
        credential = add_credential(partner, environment, client_id=client_id, client_secret=client_secret)
    return partner, credential


def add_credential(
    partner: Partner, environment: str, *, client_id: str | None = None, client_secret: str | None = None
) -> IssuedCredential:
    client_id = client_id or f"{partner.code.lower().replace('_', '-')}-{environment}-{secrets.token_hex(4)}"
    client_secret = client_secret or secrets.token_urlsafe(32)
    PartnerCredential.create(
        partner=partner, environment=environment, client_id=client_id, secret_hash=hash_secret(client_secret)
    )
    return IssuedCredential(client_id, client_secret, environment)


def rotate_secret(partner: Partner, environment: str) -> IssuedCredential:
    """Revoke the partner's credentials of ``environment`` and issue a new one."""
    with db.atomic():
        (
            PartnerCredential.update(revoked_at=now())
            .where(
                PartnerCredential.partner == partner,
                PartnerCredential.environment == environment,
                PartnerCredential.revoked_at.is_null(),
            )
            .execute()
        )
        return add_credential(partner, environment)


def find_active_credential(client_id: str) -> PartnerCredential | None:
    return (
        PartnerCredential.select(PartnerCredential, Partner)
        .join(Partner)
        .where(PartnerCredential.client_id == client_id, PartnerCredential.revoked_at.is_null())
        .first()
    )


def record_credential_use(credential_id) -> None:
    """Stamp ``last_used_at`` when a credential obtained a token."""
    PartnerCredential.update(last_used_at=now()).where(PartnerCredential.id == credential_id).execute()


def find_partner(code: str) -> Partner | None:
    """The partner (origin) with ``code``, or None."""
    return Partner.get_or_none(Partner.code == code)


def all_partners() -> list[Partner]:
    """Every partner, by code."""
    return list(Partner.select().order_by(Partner.code))


def credentials_of(partner: Partner) -> list[PartnerCredential]:
    """The partner's credentials (revoked ones too), oldest first."""
    return list(partner.credentials.order_by(PartnerCredential.created_at))


def update_partner(partner: Partner, **changes) -> Partner:
    mode = changes.get("webhook_auth_mode")
    if mode is not None and mode not in WEBHOOK_AUTH_MODES:
        raise ValueError(f"webhook auth mode must be one of {', '.join(WEBHOOK_AUTH_MODES)}")
    for field, value in changes.items():
        setattr(partner, field, value)
    partner.updated_at = now()
    partner.save()
    return partner


def seed_sandbox_partners(environment: str) -> None:
    """Create PARTNER_A and PARTNER_B with their documented credentials when missing."""
    for spec in SANDBOX_PARTNERS:
        if Partner.select().where(Partner.code == spec["code"]).exists():
            continue
        fields = {k: v for k, v in spec.items() if k not in ("code", "name", "client_id", "secret")}
        create_partner(
            spec["code"], spec["name"], environment, client_id=spec["client_id"], client_secret=spec["secret"], **fields
        )
