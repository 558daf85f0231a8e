"""Partners and credentials: creation, secret rotation, enabling and disabling, verification (the
token route's secret check and the bearer check's credential check) and sandbox seeding."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from models.db.compiled import Compiled
from models.db.database import db
from models.db.partners import WEBHOOK_AUTH_MODES, Partner, PartnerCredential
from models.domain.clock import now
from models.services.partners.tokens import TokenClaims, issue_token
from models.settings import Settings

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
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    digest = hashlib.scrypt(secret.encode(), salt=salt, **_SCRYPT)
    return hmac.compare_digest(digest.hex(), digest_hex)


_DUMMY_HASH: list[str] = []


def spend_secret_check(secret: str) -> bool:
    """The cost of ``secret_matches`` against a hash no secret matches; always False.

    The token route runs it for an unknown or disabled client id, so that case answers as slowly as
    a wrong secret and the timing tells nothing about which client ids exist."""
    if not _DUMMY_HASH:
        _DUMMY_HASH.append(hash_secret(secrets.token_urlsafe(32)))
    secret_matches(secret, _DUMMY_HASH[0])
    return False


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
    """The credential ``client_id`` names when it is not revoked and its partner is enabled."""
    return (
        PartnerCredential.select(PartnerCredential, Partner)
        .join(Partner)
        .where(
            PartnerCredential.client_id == client_id,
            PartnerCredential.revoked_at.is_null(),
            Partner.enabled == True,  # noqa: E712 (peewee expression)
        )
        .first()
    )


_CREDENTIAL_AND_PARTNER: Compiled[PartnerCredential] = Compiled(
    lambda credential_id: (
        PartnerCredential.select(PartnerCredential, Partner)
        .join(Partner)
        .where(PartnerCredential.id == credential_id)
        .limit(1)
    ),
    int,
)


def token_holder(claims: TokenClaims) -> Partner | None:
    """The partner a verified token speaks for, when the credential it names is still current: not
    revoked (a rotation revokes it), of the token's client id, origin and environment, its partner
    enabled and still in the token's generation (a disable moves it on). None otherwise (the bearer
    check answers 401). One query per request."""
    credential = _CREDENTIAL_AND_PARTNER.first(claims.credential_id)
    if (
        credential is None
        or credential.revoked_at is not None
        or not credential.partner.enabled
        or credential.partner.token_generation != claims.generation
        or credential.client_id != claims.client_id
        or credential.environment != claims.environment
        or credential.partner.code != claims.origin
    ):
        return None
    return credential.partner


def set_enabled(partner: Partner, enabled: bool) -> Partner:
    """Enable or disable a partner. A disabled one gets no token and every token issued before the
    disable answers 401 from the next request on, also after it is enabled again (its token
    generation moves on); its proposals, deliveries and data stay as they are."""
    step = 0 if enabled else 1
    Partner.update(enabled=enabled, token_generation=Partner.token_generation + step, updated_at=now()).where(
        Partner.id == partner.id
    ).execute()
    return Partner.get_by_id(partner.id)


def partner_token(settings: Settings, code: str) -> dict:
    """A token for the partner ``code`` through its current credential of this instance's
    environment, without its secret (benchmarks and tests; partners use the token route)."""
    credential = (
        PartnerCredential.select(PartnerCredential, Partner)
        .join(Partner)
        .where(
            Partner.code == code,
            PartnerCredential.environment == settings.credential_environment,
            PartnerCredential.revoked_at.is_null(),
        )
        .order_by(PartnerCredential.created_at.desc())
        .first()
    )
    if credential is None:
        raise LookupError(f"partner {code} has no current {settings.credential_environment} credential")
    return issue_token(
        settings,
        origin=code,
        client_id=credential.client_id,
        credential_id=credential.id,
        generation=credential.partner.token_generation,
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
