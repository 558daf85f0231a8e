"""Service settings: config.toml merged per environment, then environment variables, loaded into
frozen dataclasses (one per section) and validated once at start-up.

``[default]`` holds every key with its comment; the section named by ``APP_ENV`` overrides it key by
key (nested tables merge), then the variables of ``ENV_OVERRIDES`` override last. Loading checks the
result against the dataclasses below: an unknown key, a missing key or a value of the wrong type
stops start-up with a :class:`SettingsError` naming the key (``outbox.batch_size``). Money and
rates are ``Decimal`` (written as strings in the file, so no binary float ever holds them).

``app.bootstrap`` loads the settings once per process and registers them with the ports in
``models.runtime``, which only the edges read (routes, ops commands, actors, the broker side).
Use cases receive the section they read as a keyword parameter (``credit_settings=``): README,
"How it is built".
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args, get_origin, get_type_hints

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

ROOT = Path(__file__).resolve().parent.parent
CONFIG_FILE = ROOT / "config.toml"
ENVIRONMENTS = ("sandbox", "staging", "production", "test")

# Environment variables that override a key (dotted for a key inside a section). The text is read
# as the key's type (PORT as an integer).
ENV_OVERRIDES = {
    "DATABASE_URL": "database_url",
    "AMQP_URL": "amqp_url",
    "PORT": "port",
    "JWT_SIGNING_KEY": "jwt_signing_key",
    "QUEUE_PREFIX": "queue_prefix",
    "LOG_LEVEL": "log_level",
    "ESIGNATURE_CALLBACK_SECRET": "esignature.callback_secret",
    "FUNDING_CALLBACK_SECRET": "funding.callback_secret",
    "PUBLIC_BASE_URL": "esignature.public_base_url",
}
# Hosts that mean "every interface": not an address a browser can open.
ANY_INTERFACE = ("", "0.0.0.0", "::")


# Environments where local receivers and missing provider secrets are expected (partners and tests
# run everything on one machine); everywhere else a missing secret stops start-up.
LOCAL_ENVIRONMENTS = ("sandbox", "test")
# Provider secrets every environment but LOCAL_ENVIRONMENTS must set: variable -> dotted key.
CALLBACK_SECRETS = {
    "ESIGNATURE_CALLBACK_SECRET": "esignature.callback_secret",
    "FUNDING_CALLBACK_SECRET": "funding.callback_secret",
}


class SettingsError(RuntimeError):
    """The configuration cannot run the service (unknown environment or key, missing key or secret,
    a value of the wrong type)."""


@dataclass(frozen=True)
class PayrollWindowSettings:
    enforced: bool


@dataclass(frozen=True)
class SchemaSettings:
    ddl_lock_timeout_seconds: float
    ddl_attempts: int


@dataclass(frozen=True)
class DatabaseSettings:
    prepared_statements: bool


@dataclass(frozen=True)
class OutboxSettings:
    sweep_interval_seconds: float
    batch_size: int
    retention_days: int
    after_commit_lease_seconds: float
    published_mark_interval_seconds: float


@dataclass(frozen=True)
class WorkerSettings:
    embedded_threads: int


@dataclass(frozen=True)
class MetricsSettings:
    business_cache_seconds: float


@dataclass(frozen=True)
class HealthSettings:
    broker_check_cache_seconds: float
    broker_connect_timeout_seconds: float


@dataclass(frozen=True)
class ProductsSettings:
    standard_id: str
    standard_name: str
    insured_id: str
    insured_name: str


@dataclass(frozen=True)
class PricingSettings:
    monthly_rate: Decimal
    tac: Decimal
    insurance_rate: Decimal
    min_amount: Decimal
    max_amount: Decimal
    min_installment_amount: Decimal
    max_installments: int
    min_installments: int
    offer_validity_days: int
    payroll_cutoff_day: int
    due_day: int


@dataclass(frozen=True)
class CreditSettings:
    hybrid_wait_seconds: float
    retry_wait_seconds: float
    retry_dedup_seconds: int
    retry_limit: int
    retry_window_hours: int
    payroll_auto_retry_seconds: int
    payroll_auto_retry_limit: int
    min_age: int
    max_age: int
    sandbox_slow_seconds: float
    simulation_wait_seconds: float
    pricing: PricingSettings


@dataclass(frozen=True)
class LifecycleSettings:
    """``[default.lifecycle]``: the sweep that gives every stalled status its exit (README "Lifecycle")."""

    sweep_interval_seconds: int
    sweep_batch_size: int
    idle_before_analysis_days: int
    analysis_stall_minutes: int
    # An analysis still in progress this long after its status began is run again (its message
    # lost in an outage longer than the actor's retries); 0 turns the re-drive off.
    analysis_redrive_seconds: float


@dataclass(frozen=True)
class MoneyPathSettings:
    """``[default.money_path]``: the durable re-drive of every step of the money path and of the
    pending status events (README "Contract path", "Webhooks")."""

    sweep_interval_seconds: int
    sweep_batch_size: int
    redrive_first_seconds: int
    redrive_max_seconds: int
    alert_after_attempts: int
    status_event_horizon_hours: int


@dataclass(frozen=True)
class ContactSettings:
    max_token_attempts: int
    resend_cooldown_seconds: int
    # A code message still without an outcome this long after it was handed over is lost: a new
    # code replaces it (models/domain/code_messages.py); 0 turns the re-drive off.
    unanswered_message_seconds: float


@dataclass(frozen=True)
class ExternalSystemSettings:
    """One ``[default.external.<system>]`` table: where the system is and how long to wait for it."""

    url: str
    connect_timeout: float
    read_timeout: float
    retries: int


@dataclass(frozen=True)
class ExternalSettings:
    payroll: ExternalSystemSettings
    credit_engine: ExternalSystemSettings
    sms: ExternalSystemSettings
    messaging_app: ExternalSystemSettings
    collections: ExternalSystemSettings


@dataclass(frozen=True)
class WebhooksSettings:
    status_schedule_seconds: tuple[float, ...]
    status_timeout_seconds: float
    hold_recheck_seconds: float
    hold_max_seconds: float
    auction_schedule_seconds: tuple[float, ...]
    auction_timeout_seconds: float
    connect_timeout_seconds: float
    response_snippet_chars: int
    transport: Literal["http", "recording"]


@dataclass(frozen=True)
class IdempotencySettings:
    """``[default.idempotency]``: how long an Idempotency-Key is kept, and after how long a claim
    whose request never answered (its process died) may be taken over (README "Idempotency-Key")."""

    retention_hours: int
    in_flight_timeout_seconds: int


@dataclass(frozen=True)
class EventsSettings:
    """``[default.events]``: how many days ``GET /v1/events`` lists an event (README "Events feed")."""

    retention_days: int


@dataclass(frozen=True)
class AuctionsSettings:
    base_url: str
    timeout_seconds: float
    poll_interval_seconds: int


@dataclass(frozen=True)
class BankingSettings:
    pix_lookup_wait_seconds: float


@dataclass(frozen=True)
class ContractSettings:
    hybrid_wait_seconds: float
    watchdog_seconds: int
    documents_dir: str


@dataclass(frozen=True)
class ESignatureSettings:
    base_url: str
    timeout_seconds: float
    callback_secret: str
    public_base_url: str
    provider_name: str


@dataclass(frozen=True)
class CcbSettings:
    """What the Cédula de Crédito Bancário states besides the loan's numbers (README, "The contract")."""

    creditor_name: str
    creditor_cnpj: str
    creditor_address: str
    issue_place: str
    payment_place: str
    customer_service: str
    ombudsman: str
    document_notice: str


@dataclass(frozen=True)
class PixDirectorySettings:
    base_url: str
    timeout_seconds: float


@dataclass(frozen=True)
class AccountOwnershipSettings:
    base_url: str
    timeout_seconds: float


@dataclass(frozen=True)
class FraudSettings:
    review_above_amount: Decimal
    base_url: str
    timeout_seconds: float


@dataclass(frozen=True)
class EndorsementSettings:
    base_url: str
    timeout_seconds: float


@dataclass(frozen=True)
class FundingSettings:
    base_url: str
    timeout_seconds: float
    callback_secret: str


@dataclass(frozen=True)
class DisbursementSettings:
    pay_immediately: bool
    pay_at_local_time: str


@dataclass(frozen=True)
class Settings:
    """Every key of config.toml, typed; ``environment`` is the APP_ENV section that was applied."""

    environment: str
    credential_environment: Literal["staging", "production"]
    base_path: str
    host: str
    port: int
    database_url: str
    amqp_url: str
    queue_prefix: str
    jwt_signing_key: str
    jwt_issuer: str
    token_ttl_seconds: int
    jwt_leeway_seconds: int
    request_body_max_bytes: int
    unavailable_retry_after_seconds: int
    external_mode: Literal["sandbox", "http"]
    seed_sandbox_partners: bool
    sandbox_routes: bool
    log_level: str
    payroll_window: PayrollWindowSettings
    schema: SchemaSettings
    database: DatabaseSettings
    outbox: OutboxSettings
    worker: WorkerSettings
    metrics: MetricsSettings
    health: HealthSettings
    products: ProductsSettings
    credit: CreditSettings
    lifecycle: LifecycleSettings
    money_path: MoneyPathSettings
    contact: ContactSettings
    external: ExternalSettings
    webhooks: WebhooksSettings
    idempotency: IdempotencySettings
    events: EventsSettings
    auctions: AuctionsSettings
    banking: BankingSettings
    contract: ContractSettings
    ccb: CcbSettings
    esignature: ESignatureSettings
    pix_directory: PixDirectorySettings
    account_ownership: AccountOwnershipSettings
    fraud: FraudSettings
    endorsement: EndorsementSettings
    funding: FundingSettings
    disbursement: DisbursementSettings

    @property
    def is_production(self) -> bool:
        return self.environment == "production"

    @property
    def public_base_url(self) -> str:
        """Public address of this instance (links it hands out, e.g. the sandbox signing pages):
        ``[esignature] public_base_url`` / PUBLIC_BASE_URL when set, else the host and port it
        serves on, so a PORT change moves the links with it."""
        configured = self.esignature.public_base_url.strip()
        if configured:
            return configured.rstrip("/")
        host = "127.0.0.1" if self.host in ANY_INTERFACE else self.host
        return f"http://{host}:{self.port}"

    @property
    def uses_rabbitmq(self) -> bool:
        return bool(self.amqp_url)

    @property
    def is_local(self) -> bool:
        """Sandbox or test: local receivers allowed, provider secrets optional."""
        return self.environment in LOCAL_ENVIRONMENTS

    @property
    def uses_postgres(self) -> bool:
        return self.database_url.startswith(("postgres://", "postgresql://", "postgres+", "postgresql+"))


# Fields set by the loader, not read from the file.
_NOT_IN_FILE = frozenset({"environment"})

_Section = TypeVar("_Section", bound="DataclassInstance")


def _merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        existing = merged.get(key)
        if isinstance(value, Mapping) and isinstance(existing, Mapping):
            merged[key] = _merge(existing, value)
        else:
            merged[key] = value
    return merged


def _key(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _section(cls: type[_Section], data: Any, path: str, **given: Any) -> _Section:
    """``cls`` built from ``data`` (one table of the file), every key checked."""
    if not isinstance(data, Mapping):
        raise SettingsError(f"setting {path} must be a table of keys, not {_kind(data)}")
    hints = get_type_hints(cls)
    names = [f.name for f in fields(cls) if f.name not in _NOT_IN_FILE]
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise SettingsError(f"unknown setting {_key(path, unknown[0])}: config.toml [default] does not define it")
    values = dict(given)
    for name in names:
        key = _key(path, name)
        if name not in data:
            raise SettingsError(f"missing setting {key}: add it to config.toml [default]")
        values[name] = _value(data[name], hints[name], key)
    return cls(**values)


def _kind(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string"}.get(
        type(value), type(value).__name__
    )


def _value(value: Any, annotation: Any, key: str) -> Any:
    """``value`` as ``annotation``, or a SettingsError naming ``key``. Values are never echoed:
    some keys are secrets."""
    origin = get_origin(annotation)
    if isinstance(annotation, type) and hasattr(annotation, "__dataclass_fields__"):
        return _section(annotation, value, key)
    if origin is Literal:
        choices = get_args(annotation)
        if value not in choices:
            raise SettingsError(f"setting {key} must be one of {', '.join(repr(c) for c in choices)}")
        return value
    if origin is tuple:
        (item,) = get_args(annotation)[:1]
        if not isinstance(value, list | tuple):
            raise SettingsError(f"setting {key} must be a list, not {_kind(value)}")
        return tuple(_value(element, item, f"{key}[{index}]") for index, element in enumerate(value))
    if annotation is bool:
        if not isinstance(value, bool):
            raise SettingsError(f"setting {key} must be true or false, not {_kind(value)}")
        return value
    if annotation is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(f"setting {key} must be an integer, not {_kind(value)}")
        return value
    if annotation is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SettingsError(f"setting {key} must be a number, not {_kind(value)}")
        return float(value)
    if annotation is str:
        if not isinstance(value, str):
            raise SettingsError(f"setting {key} must be a string, not {_kind(value)}")
        return value
    if annotation is Decimal:
        return _decimal(value, key)
    raise TypeError(f"settings: no reader for {annotation!r} ({key})")


def _decimal(value: Any, key: str) -> Decimal:
    # A TOML float would already have lost the exact value ("0.0199"): only text or integers.
    if isinstance(value, Decimal):
        amount = value
    elif isinstance(value, str):
        try:
            amount = Decimal(value)
        except InvalidOperation:
            raise SettingsError(f'setting {key} must be a decimal number written as a string ("0.0199")') from None
    elif isinstance(value, int) and not isinstance(value, bool):
        amount = Decimal(value)
    else:
        raise SettingsError(
            f'setting {key} must be a decimal number written as a string ("0.0199"), not {_kind(value)}'
        )
    if not amount.is_finite():
        raise SettingsError(f"setting {key} must be a finite decimal number")
    return amount


def _annotation_of(dotted: str) -> Any:
    """The declared type of a dotted key (``esignature.callback_secret``)."""
    cls: Any = Settings
    annotation: Any = None
    for part in dotted.split("."):
        annotation = get_type_hints(cls)[part]
        cls = annotation
    return annotation


def _environment_overrides(environ: Mapping[str, str]) -> dict[str, Any]:
    """The set variables of ENV_OVERRIDES as a nested table (empty values are ignored)."""
    table: dict[str, Any] = {}
    for variable, dotted in ENV_OVERRIDES.items():
        text = environ.get(variable)
        if not text:
            continue
        value: Any = text
        if _annotation_of(dotted) is int:
            try:
                value = int(text)
            except ValueError:
                raise SettingsError(f"{variable} must be an integer (setting {dotted})") from None
        *parents, name = dotted.split(".")
        node = table
        for parent in parents:
            node = node.setdefault(parent, {})
        node[name] = value
    return table


def load_settings(
    environment: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    *,
    config_file: Path = CONFIG_FILE,
) -> Settings:
    """Build and validate settings for ``environment`` (default: APP_ENV, else sandbox).

    ``overrides`` (tests, benchmarks) merge last, like an environment section would; ``config_file``
    is config.toml unless a test reads another file.
    """
    environ = os.environ if environ is None else environ
    environment = environment or environ.get("APP_ENV") or "sandbox"
    if environment not in ENVIRONMENTS:
        raise SettingsError(f"APP_ENV must be one of {', '.join(ENVIRONMENTS)}, not {environment!r}")
    with config_file.open("rb") as handle:
        raw = tomllib.load(handle)
    data = _merge(raw.get("default", {}), raw.get(environment, {}))
    data = _merge(data, _environment_overrides(environ))
    if overrides:
        data = _merge(data, overrides)
    if not data.get("jwt_signing_key"):
        raise SettingsError(f"JWT_SIGNING_KEY must be set for the {environment} environment")
    settings = _section(Settings, data, "", environment=environment)
    _require_callback_secrets(settings)
    _require_marks_inside_the_lease(settings.outbox)
    return settings


def _require_marks_inside_the_lease(outbox: OutboxSettings) -> None:
    # A published mark written after its row's lease lapsed lets the sweeper send the row again
    # (rabbitmq/published_marks.py): keep at least half the lease for the write itself.
    interval, lease = outbox.published_mark_interval_seconds, outbox.after_commit_lease_seconds
    if not 0 <= interval < lease / 2:
        raise SettingsError(
            f"setting outbox.published_mark_interval_seconds must be at least 0 and under half of "
            f"outbox.after_commit_lease_seconds ({lease}), not {interval}"
        )


def _require_callback_secrets(settings: Settings) -> None:
    # Without the secret every callback of that provider answers 401 and signed contracts or
    # withdrawals are never applied: refuse to start rather than fail one callback at a time.
    if settings.is_local:
        return
    for variable, dotted in CALLBACK_SECRETS.items():
        section, name = dotted.split(".")
        if not getattr(getattr(settings, section), name):
            raise SettingsError(
                f"{variable} must be set for the {settings.environment} environment (setting {dotted}): "
                "the provider's callbacks cannot be verified without it"
            )


def require_broker(settings: Settings, entry: str) -> None:
    """Refuse to run ``entry`` (the API under gunicorn, a worker pool) without ``AMQP_URL``.

    Without it each process would get its own in-memory broker that no worker of another process
    reads: outbox rows would be marked published and their messages lost. Only the embedded default
    (``make run``: API, worker and broker in one process) and the test suite (the same shape) run
    without RabbitMQ.
    """
    if settings.uses_rabbitmq or settings.environment == "test":
        return
    raise SettingsError(
        f"AMQP_URL must be set to run {entry} (environment {settings.environment}): without RabbitMQ "
        "each process keeps its own in-memory queue that nothing consumes. Use `make run` for the "
        "embedded API + worker, or set AMQP_URL=amqp://user:pass@host:5672/%2F"
    )
