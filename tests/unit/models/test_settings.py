"""config.toml merging and environment-variable overrides."""

import pytest

from models.settings import SettingsError, current, load_settings, use


def test_environment_section_overrides_default():
    settings = load_settings("production", environ={"JWT_SIGNING_KEY": "k" * 32})
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
        },
    )
    assert settings.database_url == "postgresql://x@h/db" and settings.uses_postgres
    assert settings.amqp_url == "amqp://h" and settings.uses_rabbitmq
    assert settings.port == 9000 and settings.jwt_signing_key == "env-key"


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

    from models.settings import CONFIG_FILE

    raw = tomllib.loads(CONFIG_FILE.read_text())
    assert not raw["default"]["jwt_signing_key"] and "jwt_signing_key" not in raw["production"]


def test_unknown_setting_names_itself():
    with pytest.raises(AttributeError, match="nope"):
        load_settings("sandbox", environ={}).nope  # noqa: B018  (reading it is the test)


@pytest.mark.parametrize(
    "environment,enforced", [("test", True), ("staging", True), ("production", True), ("sandbox", False)]
)
def test_the_payroll_window_is_enforced_everywhere_but_the_sandbox(environment, enforced):
    # The sandbox lets partners walk the whole flow on any day of the month.
    settings = load_settings(environment, environ={"JWT_SIGNING_KEY": "k" * 40})
    assert settings.payroll_window.enforced is enforced


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
    from models.external.esignature import sandbox

    previous = current()
    try:
        use(load_settings("sandbox", environ={"PORT": "8100"}))
        assert sandbox.signing_url("p-1") == "http://127.0.0.1:8100/sandbox/esign/p-1"
        use(load_settings("sandbox", environ={"PORT": "8100", "PUBLIC_BASE_URL": "https://x.example"}))
        assert sandbox.signing_url("p-1") == "https://x.example/sandbox/esign/p-1"
    finally:
        use(previous)
