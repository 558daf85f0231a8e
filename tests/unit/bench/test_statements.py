"""The statement report of ``bench.full_flow --statements``: figures per proposal, costliest first."""

from bench import statements


def test_the_report_gives_each_statement_its_share_and_cost_per_proposal(capsys):
    rows = [
        (300, 600.0, 300, "UPDATE  outbox_message\n   SET published_at = $1 WHERE id = $2"),
        (600, 300.0, 0, "SELECT 1"),
        (100, 100.0, 100, "INSERT INTO x " + "y" * 200),
    ]
    statements.print_top(rows, proposals=100, limit=2)
    out = capsys.readouterr().out
    assert "10.0 per proposal, 10.0 ms of execution per proposal; the 2 costliest" in out
    first, second = (line.split() for line in out.splitlines()[3:5])
    assert first[:5] == ["60.0%", "6.00", "3.00", "2.000", "1.0"]
    assert " ".join(first[5:]) == "UPDATE outbox_message SET published_at = $1 WHERE id = $2"
    assert second[:5] == ["30.0%", "3.00", "6.00", "0.500", "0.0"]
    assert "INSERT" not in out
