"""The service's one clock (freezegun controls it in tests)."""
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

SAO_PAULO = ZoneInfo("America/Sao_Paulo")


def now() -> datetime:
    return datetime.now(timezone.utc)


def local_now() -> datetime:
    return now().astimezone(SAO_PAULO)


def to_local(dt: datetime) -> datetime:
    return dt.astimezone(SAO_PAULO)


def isoformat_z(dt: datetime) -> str:
    dt = dt.astimezone(timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + f"{dt.microsecond // 1000:03d}Z"
