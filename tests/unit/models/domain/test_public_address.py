"""Which addresses webhooks may reach (models/domain/public_address.py)."""

import ipaddress

import pytest

from models.domain.public_address import address_allowed, literal_address


@pytest.mark.parametrize("text", ["8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"])
def test_global_unicast_addresses_are_allowed(text):
    assert address_allowed(ipaddress.ip_address(text))


@pytest.mark.parametrize(
    "text",
    [
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "127.0.0.1",
        "0.0.0.0",
        "169.254.169.254",  # cloud metadata
        "100.64.0.1",  # shared address space (RFC 6598)
        "100.127.255.254",
        "192.0.2.1",  # documentation
        "198.18.0.1",  # benchmarking
        "224.0.0.1",
        "255.255.255.255",
        "::1",
        "fe80::1",
        "fd12:3456::1",
        "2001:db8::1",
        "::ffff:10.0.0.1",  # IPv4-mapped
        "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
        "2002:a00:1::1",  # 6to4 of 10.0.0.1
        "ff02::1",
    ],
)
def test_non_public_addresses_are_refused(text):
    assert not address_allowed(ipaddress.ip_address(text))


def test_literal_addresses_are_recognised_with_or_without_brackets():
    assert literal_address("[::1]") == ipaddress.ip_address("::1")
    assert literal_address("10.0.0.1") == ipaddress.ip_address("10.0.0.1")
    assert literal_address("hooks.partner.example") is None
