"""scripts/seed_sweep.py (issue 17: the randomized parts run with several seeds in CI):
what it runs, and that a failure fails it and says how to reproduce it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "seed_sweep.py"


@pytest.fixture(scope="module")
def sweep() -> ModuleType:
    spec = importlib.util.spec_from_file_location("seed_sweep", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_hypothesis_test_file_is_swept(sweep: ModuleType) -> None:
    root = SCRIPT.parent.parent
    using = sorted(
        str(path.relative_to(root))
        for path in (root / "tests").rglob("test_*.py")
        if "from hypothesis import" in path.read_text() and path != Path(__file__)
    )
    assert sorted(sweep.HYPOTHESIS_FILES) == using


def test_a_failing_run_fails_the_sweep_and_prints_how_to_reproduce_it(
    sweep: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[list[str]] = []

    def run(label: str, env: dict[str, str], command: list[str], quiet: bool) -> bool:
        ran.append(command)
        return not (label.startswith("simulator") and "20000" in command)

    monkeypatch.setattr(sweep, "_run", run)
    assert sweep.main(["--seeds", "1", "2", "--games", "3"]) == 1
    assert len(ran) == 2 * (1 + len(sweep.SIM_SETUPS))
    assert sum("--hypothesis-seed=2" in command for command in ran) == 1
    out = capsys.readouterr().out
    assert "FAILED: simulator, seed 20000, solo mentat" in out


def test_a_command_that_fails_is_reported_with_its_seed(
    sweep: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    command = [sys.executable, "-c", "raise SystemExit(1)", "--seed", "30000"]
    assert not sweep._run("simulator, seed 30000", {"X": "1"}, command, quiet=True)
    out = capsys.readouterr().out
    assert "FAILED (simulator, seed 30000); reproduce with:" in out
    assert "X=1 " in out and "--seed 30000" in out
    assert sweep._run("fine", {}, [sys.executable, "-c", "pass"], quiet=True)
