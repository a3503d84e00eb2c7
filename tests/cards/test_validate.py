"""Each kind of problem the card_db validator and loader detect, on deliberately broken data."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cards import CardDbError, collect_problems, default_root, load_catalog
from companion.cards.__main__ import main
from companion.cards.validate import EXPECTED_COUNTS, FILES, KINDS, TABLES, Problem, validate

CARD_DB = default_root()
REPO = CARD_DB.parent
Record = dict[str, Any]
Raw = dict[str, list[Any]]
Change = Callable[[Record], None]


def real_raw() -> Raw:
    """A fresh copy of the base set's records, as tomllib reads them."""
    raw: Raw = {}
    for kind in KINDS:
        with (CARD_DB / "base" / FILES[kind]).open("rb") as handle:
            raw[kind] = tomllib.load(handle)[TABLES[kind]]
    return raw


def find(raw: Raw, kind: str, record_id: str) -> Record:
    matches: list[Record] = [r for r in raw[kind] if r.get("id") == record_id]
    assert len(matches) == 1, record_id
    return matches[0]


def put(key: str, value: object) -> Change:
    return lambda record: record.__setitem__(key, value)


def drop(key: str) -> Change:
    return lambda record: record.__delitem__(key)


def messages(problems: list[Problem], record_id: str | None = None) -> list[str]:
    return [p.message for p in problems if record_id is None or p.record == record_id]


def assert_reported(problems: list[Problem], record_id: str | None, expected: str) -> None:
    found = messages(problems, record_id)
    assert any(expected in m for m in found), f"{expected!r} not in {found}"


def test_the_unchanged_base_data_has_no_problems() -> None:
    assert validate(real_raw()) == []


def test_problem_prints_file_record_and_message() -> None:
    assert str(Problem("base/spaces.toml", "wealth", "bad")) == "base/spaces.toml: wealth: bad"
    assert str(Problem("catalog.toml", None, "bad")) == "catalog.toml: bad"


# Each case breaks one thing in one record and names the message that must appear.
RECORD_CASES: list[tuple[str, str, str, Change, str]] = [
    # (case, kind, record id, change, expected message fragment)
    ("unknown key", "spaces", "wealth", put("colour", "red"), "unknown key 'colour'"),
    ("missing key", "spaces", "wealth", drop("effects"), "missing required key 'effects'"),
    ("string of wrong type", "spaces", "wealth", put("name", 3), "'name' must be a string"),
    ("bool of wrong type", "spaces", "wealth", put("combat", "yes"), "'combat' must be true or"),
    ("bool given as integer", "spaces", "wealth", put("base_spice", True), "must be an integer"),
    ("empty text", "spaces", "wealth", put("explanation", "  "), "must not be empty"),
    ("bad agent icon", "spaces", "wealth", put("icon", "desert"), "'icon' is 'desert'"),
    ("bad faction", "spaces", "wealth", put("faction", "harkonnen"), "'faction' is 'harkonnen'"),
    ("bad set", "spaces", "wealth", put("set", "immortality"), "'set' is 'immortality'"),
    (
        "bad set in removed_with",
        "spaces",
        "sell_melange",
        put("removed_with", ["uprising"]),
        "'removed_with[0]' is 'uprising'",
    ),
    ("cost not a table", "spaces", "conspire", put("cost", 4), "'cost' must be a table"),
    (
        "unknown resource",
        "spaces",
        "conspire",
        put("cost", {"persuasion": 1}),
        "'cost' has unknown key 'persuasion'",
    ),
    (
        "resource not an integer",
        "spaces",
        "conspire",
        put("cost", {"spice": "4"}),
        "'cost.spice' must be an integer",
    ),
    (
        "negative resource",
        "spaces",
        "conspire",
        put("cost", {"spice": -4}),
        "'cost.spice' must not be negative",
    ),
    (
        "unknown faction in requirement",
        "spaces",
        "sietch_tabr",
        put("requires_influence", {"harkonnen": 2}),
        "'requires_influence' has unknown key 'harkonnen'",
    ),
    (
        "maker space without base spice",
        "spaces",
        "hagga_basin",
        put("base_spice", 0),
        "a maker space must have 'base_spice' above 0",
    ),
    (
        "base spice on a non-maker space",
        "spaces",
        "wealth",
        put("base_spice", 2),
        "'base_spice' is 2 but the space is not a maker space",
    ),
    (
        "uncertain not a list",
        "spaces",
        "wealth",
        put("uncertain", "one doubt"),
        "'uncertain' must be a list of strings",
    ),
    ("uncertain item not text", "spaces", "wealth", put("uncertain", [1]), "'uncertain[0]'"),
    ("bad players mark", "hagal", "wealth", put("players", "3P"), "'players' is '3P'"),
    ("negative swords", "hagal", "wealth", put("swords", -1), "'swords' must not be negative"),
    ("zero copies", "hagal", "wealth", put("copies", 0), "'copies' must be at least 1"),
    (
        "unknown hagal target space",
        "hagal",
        "wealth",
        put("space", "arrakis"),
        "'space' refers to unknown space 'arrakis'",
    ),
    (
        "hagal influence not the space's faction",
        "hagal",
        "conspire",
        put("influence", "fremen"),
        "'influence' is 'fremen' but space 'conspire' has faction 'emperor'",
    ),
    (
        "hagal influence on a space without faction",
        "hagal",
        "carthag",
        put("influence", "fremen"),
        "space 'carthag' has no faction",
    ),
    (
        "card kept while its space is removed",
        "hagal",
        "rally_troops",
        drop("removed_with"),
        "space 'rally_troops' is removed with 'ix' but this card is not",
    ),
    (
        "harvest card naming a space",
        "hagal",
        "harvest_spice",
        put("space", "hagga_basin"),
        "a 'harvest' card must not name a 'space'",
    ),
    (
        "card both harvest and reshuffle",
        "hagal",
        "reshuffle",
        put("harvest", True),
        "can't be both 'harvest' and 'reshuffle'",
    ),
    (
        "ordinary card without a space",
        "hagal",
        "wealth",
        drop("space"),
        "missing 'space' (only harvest and reshuffle cards have none)",
    ),
    (
        "bad rival signet",
        "leaders",
        "leto_atreides",
        put("rival_signet", "steal"),
        "'rival_signet' is 'steal'",
    ),
    (
        "rival leader without a signet kind",
        "leaders",
        "leto_atreides",
        put("rival_signet", "none"),
        "'rival_signet' is 'none' but 'rival_allowed' is true",
    ),
    (
        "banned leader with a signet kind",
        "leaders",
        "paul_atreides",
        put("rival_signet", "gain_spice"),
        "'rival_signet' is 'gain_spice' but 'rival_allowed' is false",
    ),
    ("level out of range", "conflicts", "skirmish_a", put("level", 4), "'level' is 4"),
    ("negative level", "conflicts", "skirmish_a", put("level", -1), "must not be negative"),
    (
        "unknown controlled space",
        "conflicts",
        "siege_of_arrakeen",
        put("controlled_space", "arrakis"),
        "'controlled_space' refers to unknown space 'arrakis'",
    ),
    (
        "controlled space without control bonus",
        "conflicts",
        "raid_stockpiles",
        put("controlled_space", "hagga_basin"),
        "'controlled_space' 'hagga_basin' is a space without a control_bonus",
    ),
    (
        "reward controlling an unknown space",
        "conflicts",
        "skirmish_a",
        put("first", {"vp": 1, "control": "arrakis"}),
        "'first.control' refers to unknown space 'arrakis'",
    ),
    (
        "reward controlling another space than the card",
        "conflicts",
        "siege_of_arrakeen",
        put("first", {"vp": 1, "control": "carthag"}),
        "'first.control' gives 'carthag' but 'controlled_space' is 'arrakeen'",
    ),
    (
        "reward control on a card without controlled space",
        "conflicts",
        "skirmish_a",
        put("first", {"vp": 1, "control": "carthag"}),
        "'first.control' gives 'carthag' but 'controlled_space' is not set",
    ),
    (
        "controlled space no reward grants",
        "conflicts",
        "siege_of_arrakeen",
        put("first", {"vp": 1}),
        "'controlled_space' is 'arrakeen' but no reward grants its control",
    ),
    (
        "unknown reward key",
        "conflicts",
        "skirmish_a",
        put("first", {"vp": 1, "persuasion": 2}),
        "unknown key 'first.persuasion'",
    ),
    ("reward not a table", "conflicts", "skirmish_a", put("first", 1), "'first' must be a table"),
    ("missing reward", "conflicts", "skirmish_a", drop("third"), "missing required key 'third'"),
    (
        "negative reward",
        "conflicts",
        "skirmish_a",
        put("third", {"solari": -2}),
        "'third.solari' must not be negative",
    ),
    (
        "influence without a faction count",
        "conflicts",
        "skirmish_c",
        put("first", {"influence": 1, "spice": 1}),
        "'first.influence' and 'first.influence_factions' must both be set or both be 0",
    ),
    (
        "option containing a choice",
        "conflicts",
        "cloak_and_dagger",
        put(
            "third",
            {"choose": 1, "options": [{"choose": 1, "options": [{"spice": 1}]}, {"spice": 1}]},
        ),
        "option 'third.options[0]' must not contain 'choose'",
    ),
    (
        "choose more than the options",
        "conflicts",
        "cloak_and_dagger",
        put("third", {"choose": 3, "options": [{"intrigue": 1}, {"spice": 1}]}),
        "'third.choose' is 3, must be between 1 and 2",
    ),
    (
        "choose zero",
        "conflicts",
        "cloak_and_dagger",
        put("third", {"choose": 0, "options": [{"intrigue": 1}, {"spice": 1}]}),
        "'third.choose' is 0, must be between 1 and 2",
    ),
    (
        "choose without options",
        "conflicts",
        "skirmish_a",
        put("third", {"solari": 2, "choose": 1}),
        "'third.choose' is set but 'third.options' is missing",
    ),
    (
        "options without choose",
        "conflicts",
        "skirmish_a",
        put("third", {"options": [{"solari": 2}, {"spice": 1}]}),
        "'third.options' is set but 'third.choose' is missing",
    ),
    (
        "empty option",
        "conflicts",
        "cloak_and_dagger",
        put("third", {"choose": 1, "options": [{}, {"spice": 1}]}),
        "option 'third.options[0]' must not be empty",
    ),
    (
        "option not a table",
        "conflicts",
        "cloak_and_dagger",
        put("third", {"choose": 1, "options": [1, {"spice": 1}]}),
        "'third.options[0]' must be a table",
    ),
    (
        "options not a list",
        "conflicts",
        "cloak_and_dagger",
        put("third", {"choose": 1, "options": {"spice": 1}}),
        "'third.options' must be a list of tables",
    ),
    (
        "option controlling an unknown space",
        "conflicts",
        "battle_for_arrakeen",
        put(
            "second",
            {"choose": 1, "options": [{"spice": 2}, {"control": "arrakis"}]},
        ),
        "'second.options[1].control' refers to unknown space 'arrakis'",
    ),
]


@pytest.mark.parametrize(
    ("kind", "record_id", "change", "expected"),
    [case[1:] for case in RECORD_CASES],
    ids=[case[0] for case in RECORD_CASES],
)
def test_validator_reports_a_broken_record(
    kind: str, record_id: str, change: Change, expected: str
) -> None:
    raw = real_raw()
    change(find(raw, kind, record_id))
    assert_reported(validate(raw), record_id, expected)


def test_problems_name_the_file_each_record_came_from() -> None:
    raw = real_raw()
    find(raw, "hagal", "wealth")["swords"] = -1
    origins = {kind: [f"base/{FILES[kind]}"] * len(raw[kind]) for kind in KINDS}
    problems = validate(raw, origins=origins)
    assert [str(p) for p in problems] == [
        "base/hagal.toml: wealth: 'swords' must not be negative (got -1)"
    ]


def test_duplicate_ids_within_a_kind_are_reported() -> None:
    raw = real_raw()
    raw["leaders"].append(dict(find(raw, "leaders", "paul_atreides")))
    assert_reported(validate(raw), "paul_atreides", "duplicate id 'paul_atreides'")


def test_the_same_id_in_two_kinds_is_not_a_duplicate() -> None:
    raw = real_raw()
    assert find(raw, "spaces", "conspire") and find(raw, "hagal", "conspire")
    assert not any("duplicate" in m for m in messages(validate(raw)))


def test_a_record_that_is_not_a_table_is_reported() -> None:
    raw = real_raw()
    raw["spaces"].append("oops")
    assert_reported(validate(raw), None, "record #23 must be a table, not str")


def test_an_unknown_kind_is_reported() -> None:
    raw = real_raw()
    raw["tech"] = []
    assert_reported(validate(raw), None, "unknown kind 'tech'")


def test_missing_space_is_reported_as_a_wrong_count() -> None:
    raw = real_raw()
    raw["spaces"] = [r for r in raw["spaces"] if r["id"] != "secure_contract"]
    problems = validate(raw)
    assert [str(p) for p in problems] == ["base/spaces.toml: set 'base' has 21 spaces, expected 22"]


def test_wrong_hagal_copies_and_mode_marks_are_counted() -> None:
    raw = real_raw()
    find(raw, "hagal", "arrakeen_2p")["copies"] = 2
    find(raw, "hagal", "arrakeen_1p")["players"] = "both"
    found = messages(validate(raw))
    assert "set 'base' has 30 House Hagal cards, expected 31" in found
    assert "set 'base' has 3 2P House Hagal cards, expected 4" in found
    assert "set 'base' has 0 1P House Hagal cards, expected 3" in found


def test_missing_leader_is_reported_as_a_wrong_count() -> None:
    raw = real_raw()
    raw["leaders"].pop()
    assert "set 'base' has 7 leaders, expected 8" in messages(validate(raw))


def test_wrong_conflict_levels_are_counted() -> None:
    raw = real_raw()
    find(raw, "conflicts", "skirmish_a")["level"] = 2
    raw["conflicts"] = [r for r in raw["conflicts"] if r["id"] != "grand_vision"]
    found = messages(validate(raw))
    assert "set 'base' has 17 conflicts, expected 18" in found
    assert "set 'base' has 3 level 1 conflicts, expected 4" in found
    assert "set 'base' has 11 level 2 conflicts, expected 10" in found
    assert "set 'base' has 3 level 3 conflicts, expected 4" in found


def test_counts_are_checked_for_a_requested_set_without_records() -> None:
    problems = validate(real_raw(), sets=["base", "ix"])
    assert {p.file for p in problems} == {f"ix/{FILES[k]}" for k in KINDS}
    assert "set 'ix' has 0 spaces, expected 4" in messages(problems)


def test_expected_counts_cover_every_known_set() -> None:
    assert set(EXPECTED_COUNTS) == {"base", "ix"}
    assert EXPECTED_COUNTS["base"]["hagal"] == 31


def test_several_problems_are_all_reported_in_one_run() -> None:
    raw = real_raw()
    find(raw, "spaces", "wealth")["icon"] = "desert"
    find(raw, "hagal", "wealth")["space"] = "arrakis"
    find(raw, "leaders", "paul_atreides")["rival_allowed"] = "no"
    find(raw, "conflicts", "cloak_and_dagger")["third"]["choose"] = 5
    raw["leaders"].pop()
    found = [str(p) for p in validate(raw)]
    assert len(found) == 5, found
    assert any("'icon' is 'desert'" in m for m in found)
    assert any("unknown space 'arrakis'" in m for m in found)
    assert any("'rival_allowed' must be true or false" in m for m in found)
    assert any("'third.choose' is 5" in m for m in found)
    assert any("7 leaders, expected 8" in m for m in found)


# --- the loader: files, folders and catalog.toml ---------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A writable copy of the real card_db."""
    root = tmp_path / "card_db"
    shutil.copytree(CARD_DB, root)
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_copy_of_the_real_card_db_loads(db: Path) -> None:
    catalog = load_catalog(db)
    assert catalog.version == "base-2026.11.1"
    assert len(catalog.spaces) == 22


def test_load_catalog_raises_with_every_problem(db: Path) -> None:
    edit(db / "base" / "spaces.toml", 'icon = "emperor"', 'icon = "throne"')
    edit(db / "base" / "leaders.toml", 'rival_signet = "gain_water"', 'rival_signet = "rain"')
    with pytest.raises(CardDbError) as caught:
        load_catalog(db)
    found = [str(p) for p in caught.value.problems]
    assert any(m.startswith("base/spaces.toml: conspire: 'icon' is 'throne'") for m in found)
    assert any(m.startswith("base/leaders.toml: ariana_thorvald: 'rival_signet'") for m in found)
    assert "2 problem(s) in card_db" in str(caught.value)


def test_invalid_toml_is_reported_and_other_files_still_checked(db: Path) -> None:
    edit(db / "base" / "hagal.toml", "copies = 2", "copies = = 2")
    edit(db / "base" / "leaders.toml", 'rival_signet = "gain_water"', 'rival_signet = "rain"')
    found = [str(p) for p in collect_problems(db)]
    assert any(m.startswith("base/hagal.toml: invalid TOML") for m in found)
    assert any("'rival_signet' is 'rain'" in m for m in found)


def test_a_missing_file_is_reported(db: Path) -> None:
    (db / "base" / "leaders.toml").unlink()
    found = [str(p) for p in collect_problems(db)]
    assert "base/leaders.toml: file not found" in found
    assert "base/leaders.toml: set 'base' has 0 leaders, expected 8" in found


def test_an_unexpected_file_in_a_set_folder_is_reported(db: Path) -> None:
    (db / "base" / "tech.toml").write_text("", encoding="utf-8")
    assert any(str(p).startswith("base/tech.toml: unexpected file") for p in collect_problems(db))


def test_an_unknown_top_level_table_is_reported(db: Path) -> None:
    edit(db / "base" / "leaders.toml", "[[leader]]", "[[leaders]]")
    found = [str(p) for p in collect_problems(db)]
    assert any("unknown top-level key 'leaders'" in m for m in found)


def test_records_that_are_not_an_array_of_tables_are_reported(db: Path) -> None:
    path = db / "base" / "leaders.toml"
    path.write_text('leader = "paul"\n', encoding="utf-8")
    found = [str(p) for p in collect_problems(db)]
    assert "base/leaders.toml: 'leader' must be an array of tables ([[leader]])" in found


def test_a_record_in_the_wrong_set_folder_is_reported(db: Path) -> None:
    edit(db / "base" / "conflicts.toml", 'set = "base"', 'set = "ix"')
    found = [str(p) for p in collect_problems(db)]
    expected = "skirmish_a: 'set' is 'ix' but the file is in the 'base' folder"
    assert f"base/conflicts.toml: {expected}" in found


def test_an_unknown_or_missing_set_is_reported(db: Path) -> None:
    found = [str(p) for p in collect_problems(db, ("base", "uprising", "ix"))]
    assert "uprising/: unknown set 'uprising', expected one of: base, ix" in found
    assert "ix/: set folder not found" in found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "catalog.toml: missing required key 'version'"),
        ("version = 3\n", "catalog.toml: 'version' must be a non-empty string"),
        ('version = "x"\nsets = ["base"]\n', "catalog.toml: unknown key 'sets'"),
    ],
    ids=["missing version", "version not a string", "unknown key"],
)
def test_catalog_file_problems_are_reported(db: Path, text: str, expected: str) -> None:
    (db / "catalog.toml").write_text(text, encoding="utf-8")
    assert expected in [str(p) for p in collect_problems(db)]


def test_a_missing_card_db_folder_is_reported(tmp_path: Path) -> None:
    found = [str(p) for p in collect_problems(tmp_path / "nowhere")]
    assert "catalog.toml: file not found" in found
    assert "base/: set folder not found" in found


# --- the command line ----------------------------------------------------------------


def test_cli_json_prints_the_counts_and_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--json"]) == 0
    counts = json.loads(capsys.readouterr().out)
    assert counts == {"base": {"spaces": 22, "hagal": 31, "leaders": 8, "conflicts": 18}}


def test_cli_text_prints_version_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "card_db base-2026.11.1: no problems" in out
    assert "base: 22 spaces, 31 House Hagal cards, 8 leaders, 18 conflicts" in out


def test_cli_prints_every_problem_and_exits_one(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(db / "base" / "spaces.toml", 'icon = "emperor"', 'icon = "throne"')
    (db / "base" / "hagal.toml").unlink()
    assert main(["--root", str(db)]) == 1
    captured = capsys.readouterr()
    assert "base/hagal.toml: file not found" in captured.out
    assert "base/spaces.toml: conspire: 'icon' is 'throne'" in captured.out
    assert "problem(s)" in captured.err


def test_cli_json_lists_problems(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (db / "base" / "hagal.toml").unlink()
    assert main(["--json", "--root", str(db)]) == 1
    problems = json.loads(capsys.readouterr().out)["problems"]
    assert "base/hagal.toml: file not found" in problems


def test_python_dash_m_companion_cards_json_runs_as_a_program() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion.cards", "--json"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["base"] == {
        "spaces": 22,
        "hagal": 31,
        "leaders": 8,
        "conflicts": 18,
    }
