"""The benchmark and demo helpers: CPFs the service accepts, a 404 that is not a missing route, percentiles
(a route the service lacks, through the app: tests/e2e/bench/test_client.py)."""

import random

import requests

from bench.client import _raise_if_route_missing, valid_cpf
from bench.stats import percentile


def _cpf_ok(cpf: str) -> bool:
    digits = [int(c) for c in cpf]
    for length in (9, 10):
        total = sum(d * w for d, w in zip(digits[:length], range(length + 1, 1, -1), strict=True))
        if (total * 10 % 11) % 10 != digits[length]:
            return False
    return True


def test_generated_cpfs_have_valid_check_digits():
    rng = random.Random(1)
    cpfs = [valid_cpf(rng) for _ in range(200)]
    assert all(len(cpf) == 11 and _cpf_ok(cpf) for cpf in cpfs)


def _response(status: int, body: str) -> requests.Response:
    response = requests.Response()
    response.status_code = status
    response._content = body.encode()
    return response


def test_a_missing_proposal_is_not_a_missing_route():
    body = '{"statusCode": 404, "message": "Proposal not found", "error": "Not Found"}'
    assert _raise_if_route_missing("contact", _response(404, body)) is None


def test_nearest_rank_percentiles():
    values = [float(v) for v in range(1, 101)]
    assert (percentile(values, 50), percentile(values, 95), percentile(values, 99)) == (50.0, 95.0, 99.0)
    assert percentile([], 50) == 0.0
