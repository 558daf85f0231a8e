"""Access tokens: HS256 JWTs that carry the partner's origin and the credential environment."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

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
    environment: str
    expires_at: int


class InvalidToken(Exception):
    """Missing, malformed, expired, wrongly signed or not for this environment."""


def _key(settings: Settings) -> OctKey:
    return OctKey.import_key(settings.jwt_signing_key)


def issue_token(settings: Settings, *, origin: str, client_id: str) -> dict:
    issued = int(now().timestamp())
    ttl = int(settings.token_ttl_seconds)
    claims = {
        "iss": settings.jwt_issuer,
        "sub": client_id,
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
    """Decode and check a bearer token; only HS256 is accepted (so ``alg=none`` never is)."""
    try:
        token = jwt.decode(value, _key(settings), algorithms=[ALGORITHM])
        registry = jwt.JWTClaimsRegistry(
            now=int(now().timestamp()),
            leeway=0,
            iss={"essential": True, "value": settings.jwt_issuer},
            env={"essential": True, "value": settings.credential_environment},
            exp={"essential": True},
            origin={"essential": True},
            sub={"essential": True},
        )
        registry.validate(token.claims)
    except (JoseError, ValueError, TypeError) as error:
        raise InvalidToken(str(error) or error.__class__.__name__) from None
    claims = token.claims
    return TokenClaims(
        origin=claims["origin"], client_id=claims["sub"], environment=claims["env"], expires_at=claims["exp"]
    )
