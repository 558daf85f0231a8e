"""Access tokens: HS256 JWTs that carry the partner's origin, the credential that obtained them and
the credential environment.

The token names its credential (``cid``) and the partner's token generation (``gen``), so the bearer
check can hold it against the partner's current credential and generation on every request
(``accounts.token_holder``): a rotated secret or a disabled partner stops its tokens on the next
request, not when they expire. ``jwt_leeway_seconds`` of clock
skew between hosts is tolerated on ``exp``, ``nbf`` and ``iat``.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import OctKey

from models.domain.clock import now
from models.settings import Settings

ALGORITHM = "HS256"


@dataclass(frozen=True)
class TokenClaims:
    origin: str
    client_id: str
    credential_id: int
    generation: int
    environment: str
    expires_at: int


class InvalidToken(Exception):
    """Missing, malformed, expired, wrongly signed or not for this environment."""


def _key(settings: Settings) -> OctKey:
    return _imported_key(settings.jwt_signing_key)


@functools.lru_cache(maxsize=8)
def _imported_key(secret: str) -> OctKey:
    return OctKey.import_key(secret)


@functools.lru_cache(maxsize=4096)
def _signed_claims(secret: str, value: str) -> Mapping:
    """The claims of ``value`` once its HS256 signature under ``secret`` checked out (JoseError,
    ValueError or TypeError otherwise, never cached).

    A partner sends the same token with every request for its hour: the signature and the JSON are
    checked once per process (the check was about 5 % of the API's CPU). Only what the signature
    covers is remembered, under the key that signed it; the claims (time, issuer, environment) and
    the credential are checked on every request."""
    return MappingProxyType(jwt.decode(value, _imported_key(secret), algorithms=[ALGORITHM]).claims)


def issue_token(settings: Settings, *, origin: str, client_id: str, credential_id: int, generation: int) -> dict:
    """The token response (RFC 6749 §5.1) for ``client_id``'s credential ``credential_id`` of
    ``origin``, in the partner's token ``generation``."""
    issued = int(now().timestamp())
    ttl = int(settings.token_ttl_seconds)
    claims = {
        "iss": settings.jwt_issuer,
        "sub": client_id,
        "cid": credential_id,
        "gen": generation,
        "origin": origin,
        "env": settings.credential_environment,
        "iat": issued,
        "nbf": issued,
        "exp": issued + ttl,
        "jti": uuid.uuid4().hex,
    }
    token = jwt.encode({"alg": ALGORITHM, "typ": "JWT"}, claims, _key(settings), algorithms=[ALGORITHM])
    return {"access_token": token, "token_type": "Bearer", "expires_in": ttl}


def verify_token(settings: Settings, value: str) -> TokenClaims:
    """Decode and check a bearer token; only HS256 is accepted (so ``alg=none`` never is). Whether
    the credential it names is still current is the caller's check (``accounts.token_holder``)."""
    try:
        claims = _signed_claims(settings.jwt_signing_key, value)
        registry = jwt.JWTClaimsRegistry(
            now=int(now().timestamp()),
            leeway=settings.jwt_leeway_seconds,
            iss={"essential": True, "value": settings.jwt_issuer},
            env={"essential": True, "value": settings.credential_environment},
            exp={"essential": True},
            origin={"essential": True},
            sub={"essential": True},
            cid={"essential": True},
            gen={"essential": True},
        )
        registry.validate(claims)  # type: ignore[arg-type]  # read only, as a mapping
    except (JoseError, ValueError, TypeError) as error:
        raise InvalidToken(str(error) or error.__class__.__name__) from None
    credential_id, generation, origin, client_id = claims["cid"], claims["gen"], claims["origin"], claims["sub"]
    if any(isinstance(n, bool) or not isinstance(n, int) for n in (credential_id, generation)):
        raise InvalidToken("cid and gen must be integers")
    if not isinstance(origin, str) or not isinstance(client_id, str):
        raise InvalidToken("origin and sub must be strings")
    return TokenClaims(
        origin=origin,
        client_id=client_id,
        credential_id=credential_id,
        generation=generation,
        environment=claims["env"],
        expires_at=claims["exp"],
    )
