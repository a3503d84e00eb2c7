"""`python -m companion.sim --report`: how often, and by which round, the Rivals reach 10 VP."""

from __future__ import annotations

import json
from pathlib import Path

from companion import sim
from tests.rules.helpers import catalog
from tests.stats.games import solo_loss, solo_win


def test_the_round_a_rival_reached_ten_comes_from_its_ledger():
    """A Rival given 10 VP in round 1 reached them in round 1; a game the player won at
    10 VP against Rivals at 1 and 0 VP has no such round [RB p.12 Phase 5]."""
    assert sim._round_reached(solo_loss(), 10) == 1
    assert sim._round_reached(solo_win(), 10) is None


def test_a_report_row_counts_the_games_where_the_rivals_reached_ten():
    row = sim.report_row(catalog(), "mentat", ("base",), 4, seed=1)
    assert (row["expansion"], row["difficulty"], row["games"]) == ("base", "mentat", 4)
    by_round = row["reach_by_round"]
    assert isinstance(by_round, dict)
    assert row["rivals_reach_rate"] == sum(by_round.values()) / 4
    assert row == sim.report_row(catalog(), "mentat", ("base",), 4, seed=1)  # fixed seeds


def test_the_report_command_writes_its_table(tmp_path: Path, capsys):
    out = tmp_path / "simulated.json"
    assert sim.main(["--report", "--games", "1", "--out", str(out)]) == 0
    table = json.loads(out.read_text())
    assert table["simulated"] is True and len(table["rows"]) == 8
    printed = capsys.readouterr().out
    assert "reach 10" in printed and "kwisatz" in printed
