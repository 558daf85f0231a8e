"""config.toml merging, environment-variable overrides, and the typed sections' validation."""

from decimal import Decimal

import pytest

from models.settings import CONFIG_FILE, ENVIRONMENTS, SettingsError, load_settings, require_broker

# What staging and production must be given from the environment.
SECRETS = {"JWT_SIGNING_KEY": "k" * 40, "ESIGNATURE_CALLBACK_SECRET": "e" * 32, "FUNDING_CALLBACK_SECRET": "f" * 32}


def test_environment_section_overrides_default():
    settings = load_settings("production", environ=SECRETS)
    assert settings.credential_environment == "production"
    assert settings.external_mode == "http"
    assert settings.base_path == "/v1"  # from [default]


def test_nested_tables_merge_key_by_key():
    settings = load_settings("sandbox", environ={}, overrides={"outbox": {"batch_size": 7}})
    assert settings.outbox.batch_size == 7
    assert settings.outbox.sweep_interval_seconds == 1.0


def test_environment_variables_override_the_file():
    settings = load_settings(
        "sandbox",
        environ={
            "DATABASE_URL": "postgresql://x@h/db",
            "AMQP_URL": "amqp://h",
            "PORT": "9000",
            "JWT_SIGNING_KEY": "env-key",
            "QUEUE_PREFIX": "staging.",
            "LOG_LEVEL": "DEBUG",
        },
    )
    assert settings.database_url == "postgresql://x@h/db" and settings.uses_postgres
    assert settings.amqp_url == "amqp://h" and settings.uses_rabbitmq
    assert settings.port == 9000 and settings.jwt_signing_key == "env-key"
    assert (settings.queue_prefix, settings.log_level) == ("staging.", "DEBUG")


def test_callback_secrets_come_from_the_environment_first():
    environ = {"ESIGNATURE_CALLBACK_SECRET": "esign-env", "FUNDING_CALLBACK_SECRET": "funding-env"}
    settings = load_settings("sandbox", environ=environ)
    assert (settings.esignature.callback_secret, settings.funding.callback_secret) == ("esign-env", "funding-env")
    assert load_settings("sandbox", environ={}).esignature.callback_secret == "sandbox-esignature-callback-secret"


def test_app_env_picks_the_environment():
    assert load_settings(environ={"APP_ENV": "test"}).environment == "test"
    assert load_settings(environ={}).environment == "sandbox"


def test_unknown_environment_is_refused():
    with pytest.raises(SettingsError):
        load_settings(environ={"APP_ENV": "prod"})


def test_production_without_a_signing_key_is_refused():
    with pytest.raises(SettingsError, match="JWT_SIGNING_KEY"):
        load_settings("production", environ={})


def test_production_commits_no_secret():
    import tomllib

    raw = tomllib.loads(CONFIG_FILE.read_text())
    assert not raw["default"]["jwt_signing_key"] and "jwt_signing_key" not in raw["production"]


@pytest.mark.parametrize("environment", ENVIRONMENTS)
def test_every_environment_loads_with_real_types(environment):
    settings = load_settings(environment, environ=SECRETS)
    assert isinstance(settings.credit.pricing.monthly_rate, Decimal)
    assert isinstance(settings.fraud.review_above_amount, Decimal)
    assert all(isinstance(offset, float) for offset in settings.webhooks.status_schedule_seconds)
    assert isinstance(settings.port, int) and isinstance(settings.payroll_window.enforced, bool)


def test_money_and_rates_are_exact_decimals():
    settings = load_settings("sandbox", environ={})
    assert settings.credit.pricing.monthly_rate == Decimal("0.0199")
    assert settings.fraud.review_above_amount == Decimal("30000.00")


def test_settings_are_read_only():
    settings = load_settings("sandbox", environ={})
    with pytest.raises(AttributeError):
        settings.credit.min_age = 16  # type: ignore[misc]


def test_an_unknown_key_stops_start_up_naming_it():
    with pytest.raises(SettingsError, match=r"unknown setting outbox\.batchsize"):
        load_settings("sandbox", environ={}, overrides={"outbox": {"batchsize": 7}})


def test_an_unknown_top_level_key_stops_start_up_naming_it():
    with pytest.raises(SettingsError, match=r"unknown setting sweep_interval"):
        load_settings("sandbox", environ={}, overrides={"sweep_interval": 1.0})


def test_a_missing_key_stops_start_up_naming_it(tmp_path):
    # Given a config.toml whose [default.credit] lost its min_age line
    text = CONFIG_FILE.read_text()
    assert "\nmin_age = 18\n" in text
    config = tmp_path / "config.toml"
    config.write_text(text.replace("\nmin_age = 18\n", "\n"))
    # Then loading it names the key
    with pytest.raises(SettingsError, match=r"missing setting credit\.min_age"):
        load_settings("sandbox", environ={}, config_file=config)


@pytest.mark.parametrize(
    "overrides,key,expected",
    [
        ({"outbox": {"batch_size": "200"}}, "outbox.batch_size", "an integer"),
        ({"outbox": {"batch_size": 2.5}}, "outbox.batch_size", "an integer"),
        ({"payroll_window": {"enforced": "no"}}, "payroll_window.enforced", "true or false"),
        ({"worker": {"embedded_threads": True}}, "worker.embedded_threads", "an integer"),
        ({"credit": {"hybrid_wait_seconds": "28"}}, "credit.hybrid_wait_seconds", "a number"),
        ({"credit": {"pricing": {"monthly_rate": 0.0199}}}, "credit.pricing.monthly_rate", "a decimal number"),
        ({"credit": {"pricing": {"monthly_rate": "1.99%"}}}, "credit.pricing.monthly_rate", "a decimal number"),
        ({"webhooks": {"status_schedule_seconds": [0, "1"]}}, r"webhooks.status_schedule_seconds\[1\]", "a number"),
        ({"webhooks": {"transport": "smtp"}}, "webhooks.transport", "one of 'http', 'recording'"),
        ({"external_mode": "real"}, "external_mode", "one of 'sandbox', 'http'"),
        ({"contract": 3}, "contract", "a table"),
        ({"base_path": 1}, "base_path", "a string"),
    ],
)
def test_a_wrong_type_stops_start_up_naming_the_key(overrides, key, expected):
    with pytest.raises(SettingsError, match=rf"setting {key} must be {expected}"):
        load_settings("sandbox", environ={}, overrides=overrides)


def test_a_wrong_type_never_shows_the_value():
    # Some keys are secrets: the message says what was expected, not what was given.
    with pytest.raises(SettingsError) as raised:
        load_settings("sandbox", environ={}, overrides={"jwt_signing_key": ["s3cr3t-value"]})
    assert "jwt_signing_key" in str(raised.value) and "s3cr3t" not in str(raised.value)


def test_an_environment_variable_of_the_wrong_type_names_the_variable():
    with pytest.raises(SettingsError, match=r"PORT must be an integer \(setting port\)"):
        load_settings("sandbox", environ={"PORT": "eighty"})


def test_an_integer_is_accepted_where_a_number_is_expected():
    settings = load_settings("sandbox", environ={}, overrides={"credit": {"hybrid_wait_seconds": 28}})
    assert settings.credit.hybrid_wait_seconds == 28.0 and isinstance(settings.credit.hybrid_wait_seconds, float)


@pytest.mark.parametrize(
    "environment,enforced", [("test", True), ("staging", True), ("production", True), ("sandbox", False)]
)
def test_the_payroll_window_is_enforced_everywhere_but_the_sandbox(environment, enforced):
    # The sandbox lets partners walk the whole flow on any day of the month.
    settings = load_settings(environment, environ=SECRETS)
    assert settings.payroll_window.enforced is enforced


@pytest.mark.parametrize("environment", ["staging", "production"])
@pytest.mark.parametrize("variable", ["ESIGNATURE_CALLBACK_SECRET", "FUNDING_CALLBACK_SECRET"])
def test_a_missing_callback_secret_stops_start_up_naming_it(environment, variable):
    # Given staging or production without one provider's callback secret
    environ = {name: value for name, value in SECRETS.items() if name != variable}
    # Then loading stops with the variable's name, before any callback could answer 401
    with pytest.raises(SettingsError, match=variable):
        load_settings(environment, environ=environ)


@pytest.mark.parametrize("environment", ["sandbox", "test"])
def test_sandbox_and_test_run_without_callback_secrets_from_the_environment(environment):
    assert load_settings(environment, environ={}).environment == environment


def test_new_limits_have_their_documented_defaults():
    settings = load_settings("sandbox", environ={})
    assert (settings.jwt_leeway_seconds, settings.request_body_max_bytes) == (30, 1024 * 1024)


@pytest.mark.parametrize("environment", ["sandbox", "staging", "production"])
def test_the_api_and_the_pools_refuse_to_run_without_a_broker(environment):
    # Given no AMQP_URL: each process would keep its own in-memory queue that nothing consumes
    with pytest.raises(SettingsError, match="AMQP_URL must be set to run the pools"):
        require_broker(load_settings(environment, environ=SECRETS), "the pools")
    # With RabbitMQ configured they start
    require_broker(load_settings(environment, environ={**SECRETS, "AMQP_URL": "amqp://h"}), "the pools")


def test_the_test_suite_runs_the_api_and_actors_in_one_process():
    require_broker(load_settings("test", environ={}), "the pools")


def test_public_base_url_follows_the_port_served_on():
    assert load_settings("sandbox", environ={}).public_base_url == "http://127.0.0.1:8000"
    assert load_settings("sandbox", environ={"PORT": "8100"}).public_base_url == "http://127.0.0.1:8100"


def test_public_base_url_of_an_instance_listening_on_every_interface_is_the_loopback():
    settings = load_settings("sandbox", environ={}, overrides={"host": "0.0.0.0", "port": 9000})
    assert settings.public_base_url == "http://127.0.0.1:9000"


def test_public_base_url_environment_variable_overrides_it():
    environ = {"PORT": "8100", "PUBLIC_BASE_URL": "https://loans.partner.example/"}
    settings = load_settings("sandbox", environ=environ)
    assert settings.public_base_url == "https://loans.partner.example"
    assert settings.esignature.callback_secret == "sandbox-esignature-callback-secret"  # siblings kept


def test_the_sandbox_signing_link_uses_the_public_base_url():
    from models.external.ports import build_ports

    on_8100 = build_ports(load_settings("sandbox", environ={"PORT": "8100"})).esignature
    assert on_8100.signing_url("p-1") == "http://127.0.0.1:8100/sandbox/esign/p-1"
    public = load_settings("sandbox", environ={"PORT": "8100", "PUBLIC_BASE_URL": "https://x.example"})
    assert build_ports(public).esignature.signing_url("p-1") == "https://x.example/sandbox/esign/p-1"


@pytest.mark.parametrize("interval", [2.5, 10.0, -0.1])
def test_published_marks_must_be_written_well_inside_the_lease(interval):
    overrides = {"outbox": {"after_commit_lease_seconds": 5.0, "published_mark_interval_seconds": interval}}
    with pytest.raises(SettingsError, match=r"outbox\.published_mark_interval_seconds"):
        load_settings("sandbox", environ={}, overrides=overrides)


@pytest.mark.parametrize("interval", [0, 0.5, 2.4])
def test_published_marks_at_once_or_batched_inside_the_lease(interval):
    overrides = {"outbox": {"after_commit_lease_seconds": 5.0, "published_mark_interval_seconds": interval}}
    assert load_settings("sandbox", environ={}, overrides=overrides).outbox.published_mark_interval_seconds == interval
