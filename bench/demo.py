"""A partner's whole journey against the running service, step by step (`make demo`).

Run the service first in another terminal (`make run`, or the production shape), with the same
APP_ENV and DATABASE_URL in both terminals: the demo points PARTNER_A's webhook at a local receiver
through the ops CLI, then drives token -> start -> SMS code -> validation -> analysis -> simulation
-> pre-accept -> banking data -> contract -> sandbox signing -> disbursement, prints every status
webhook received, and saves the contract PDF.

    python -m bench.demo [--base-url http://127.0.0.1:8000] [--out var/demo-contract.pdf]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

from bench.client import PartnerClient, RouteMissing, StepFailed, valid_cpf
from bench.flow import STEPS, run_flow
from bench.webhook_receiver import WebhookReceiver

ROOT = Path(__file__).resolve().parent.parent


def point_webhook(partner: str, url: str) -> None:
    """`make cli ARGS="partners update <partner> --webhook-url <url> --webhook-auth none"`."""
    command = [
        sys.executable,
        "-m",
        "flask",
        "--app",
        "app:create_app",
        "partners",
        "update",
        partner,
        "--webhook-url",
        url,
        "--webhook-auth",
        "none",
    ]
    print(f"$ flask --app app:create_app partners update {partner} --webhook-url {url} --webhook-auth none")
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        raise SystemExit(f"could not set the webhook URL:\n{result.stderr[-2000:]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", default="http://127.0.0.1:8000")
    parser.add_argument("--partner", default="PARTNER_A")
    parser.add_argument("--client-id", default="sandbox-partner-a")
    parser.add_argument("--client-secret", default="sandbox-secret-a")
    parser.add_argument("--webhook-port", type=int, default=0, help="local receiver port (0: any free one)")
    parser.add_argument("--out", default=None, help="where to save the contract PDF")
    args = parser.parse_args()

    receiver = WebhookReceiver(args.webhook_port)
    receiver.start()
    print(f"webhook receiver listening on {receiver.url}")
    point_webhook(args.partner, receiver.url)

    rng = random.Random()
    state = {
        "cpf": valid_cpf(rng),
        "full_name": "Maria da Silva Demo",
        "email": "maria.demo@example.com",
        "phone": f"+55119{rng.randint(0, 99_999_999):08d}",
    }
    # The steps that wait (the SMS code, DISBURSED) poll every quarter second: at 2 s, "disbursed"
    # printed about 2 s for a disbursement the webhooks below show about 60 ms after the signature.
    client = PartnerClient(args.base_url, args.client_id, args.client_secret, poll_interval=0.25)
    client.token()
    print(f"token: obtained for {args.client_id} (reused for every call)\n")

    def progress(step, seconds, info):
        number = STEPS.index(step) + 1
        print(f"[{number:>2}/{len(STEPS)}] {step:<16} {seconds * 1000:>8.0f} ms  {info}")

    try:
        run_flow(client, state, on_step=progress)
    except RouteMissing as missing:
        print(f"\nstopped: the service does not serve the '{missing.step}' step yet ({missing})")
        return 2
    except StepFailed as failed:
        print(f"\nstopped: {failed}")
        return 1
    finally:
        _show_webhooks(receiver, state.get("proposal_id"))
    return _save_contract(client, state["proposal_id"], args.out)


def _show_webhooks(receiver: WebhookReceiver, proposal_id: str | None) -> None:
    time.sleep(2.0)  # the last status events are delivered just after the last change
    events = [e for e in receiver.events if e.get("proposal_id") == proposal_id]
    print(f"\nstatus webhooks received for {proposal_id}: {len(events)}")
    for event in events:
        change = event.get("status_change", {})
        print(f"  {event.get('timestamp', '')}  {change.get('old_status')} -> {change.get('new_status')}")


def _save_contract(client: PartnerClient, proposal_id: str, out: str | None) -> int:
    response = client.call("contract_document", "GET", f"/proposals/{proposal_id}/contract/document")
    if response.status_code != 200:
        print(f"\ncontract document: HTTP {response.status_code} {response.text[:200]}")
        return 1
    path = Path(out) if out else ROOT / "var" / f"demo-contract-{proposal_id}.pdf"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(response.content)
    print(f"\ncontract PDF ({len(response.content)} bytes): {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
