"""Service settings: config.toml merged per environment, then environment variables.

The loaded settings are a tree of read-only namespaces (``settings.outbox.batch_size``); one
instance is current per process and every layer reads it through :func:`current`.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONFIG_FILE = ROOT / "config.toml"
ENVIRONMENTS = ("sandbox", "staging", "production", "test")

# Environment variables that override a key (dotted: a nested one), and how to read them.
ENV_OVERRIDES = {
    "DATABASE_URL": ("database_url", str),
    "AMQP_URL": ("amqp_url", str),
    "PORT": ("port", int),
    "JWT_SIGNING_KEY": ("jwt_signing_key", str),
    "QUEUE_PREFIX": ("queue_prefix", str),
    "LOG_LEVEL": ("log_level", str),
    "PUBLIC_BASE_URL": ("esignature.public_base_url", str),
}
# Hosts that mean "every interface": not an address a browser can open.
ANY_INTERFACE = ("", "0.0.0.0", "::")


class SettingsError(RuntimeError):
    """The configuration cannot run the service (unknown environment, missing secret)."""


class Settings:
    """Read-only view over one merged configuration tree."""

    def __init__(self, data: Mapping[str, Any], environment: str):
        self._data = MappingProxyType(dict(data))
        self.environment = environment

    def __getattr__(self, name: str) -> Any:
        try:
            value = self._data[name]
        except KeyError:
            raise AttributeError(f"setting {name!r} is not defined in config.toml") from None
        return Settings(value, self.environment) if isinstance(value, Mapping) else value

    def get(self, dotted: str, default: Any = None) -> Any:
        node: Any = self._data
        for part in dotted.split("."):
            if not isinstance(node, Mapping) or part not in node:
                return default
            node = node[part]
        return node

    def as_dict(self) -> dict:
        return _thaw(self._data)

    @property
    def is_production(self) -> bool:
        return self.environment == "production"

    @property
    def public_base_url(self) -> str:
        """Public address of this instance (links it hands out, e.g. the sandbox signing pages):
        ``[esignature] public_base_url`` / PUBLIC_BASE_URL when set, else the host and port it
        serves on, so a PORT change moves the links with it."""
        configured = self.get("esignature.public_base_url")
        if configured:
            return str(configured).rstrip("/")
        host = "127.0.0.1" if self.host in ANY_INTERFACE else self.host
        return f"http://{host}:{self.port}"

    @property
    def uses_rabbitmq(self) -> bool:
        return bool(self.amqp_url)

    @property
    def uses_postgres(self) -> bool:
        return self.database_url.startswith(("postgres://", "postgresql://", "postgres+", "postgresql+"))


def _thaw(data: Mapping) -> dict:
    return {k: _thaw(v) if isinstance(v, Mapping) else v for k, v in data.items()}


def _merge(base: dict, override: Mapping) -> dict:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = _merge(dict(merged[key]), value)
        else:
            merged[key] = value
    return merged


def load_settings(
    environment: str | None = None, overrides: Mapping[str, Any] | None = None, environ: Mapping[str, str] | None = None
) -> Settings:
    """Build settings for ``environment`` (default: APP_ENV, else sandbox)."""
    environ = os.environ if environ is None else environ
    environment = environment or environ.get("APP_ENV") or "sandbox"
    if environment not in ENVIRONMENTS:
        raise SettingsError(f"APP_ENV must be one of {', '.join(ENVIRONMENTS)}, not {environment!r}")
    with CONFIG_FILE.open("rb") as handle:
        raw = tomllib.load(handle)
    data = _merge(raw.get("default", {}), raw.get(environment, {}))
    for variable, (key, cast) in ENV_OVERRIDES.items():
        if environ.get(variable):
            *parents, leaf = key.split(".")
            node = data
            for parent in parents:
                child = dict(node.get(parent) or {})
                node[parent] = child
                node = child
            node[leaf] = cast(environ[variable])
    if overrides:
        data = _merge(data, overrides)
    if not data.get("jwt_signing_key"):
        raise SettingsError(f"JWT_SIGNING_KEY must be set for the {environment} environment")
    return Settings(data, environment)


_current: Settings | None = None


def current() -> Settings:
    """The settings this process runs with (loaded from the environment on first use)."""
    global _current
    if _current is None:
        _current = load_settings()
    return _current


def use(settings: Settings) -> Settings:
    """Make ``settings`` current (start-up and tests)."""
    global _current
    _current = settings
    return settings
