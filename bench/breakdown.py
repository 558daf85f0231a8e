"""Where the time went: totals per actor and per API route, read from the service's /metrics."""

from __future__ import annotations

import re

import requests

_SAMPLE = re.compile(r"^consignado_(actor|http_request)_duration_seconds_(sum|count)\{(.*)\} (\S+)$")


def breakdown(base_url: str) -> dict[str, list[tuple[str, float, int]]]:
    """{"actor": [(name, total seconds, count)], "http": [...]}, largest total first."""
    text = requests.get(base_url + "/metrics", timeout=30).text
    totals: dict[tuple[str, str], list[float]] = {}
    for line in text.splitlines():
        match = _SAMPLE.match(line)
        if not match:
            continue
        kind, field, labels, value = match.groups()
        pairs = dict(re.findall(r'(\w+)="([^"]*)"', labels))
        name = pairs.get("actor") or f"{pairs.get('method')} {pairs.get('route')}"
        entry = totals.setdefault(("actor" if kind == "actor" else "http", name), [0.0, 0.0])
        entry[0 if field == "sum" else 1] += float(value)
    result: dict[str, list] = {"actor": [], "http": []}
    for (kind, name), (seconds, count) in totals.items():
        result[kind].append((name, seconds, int(count)))
    for rows in result.values():
        rows.sort(key=lambda row: -row[1])
    return result


def print_breakdown(data: dict, top: int = 8) -> None:
    for kind, title in (("http", "API routes"), ("actor", "actors")):
        rows = [row for row in data[kind] if row[2]][:top]
        if not rows:
            continue
        print(f"  time spent, {title} (total s / calls / mean ms):")
        for name, seconds, count in rows:
            print(f"    {name:<58}{seconds:>9.1f}{count:>8}{seconds / count * 1000:>10.1f}")
