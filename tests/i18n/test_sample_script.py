"""scripts/i18n_sample.py: a seeded sample of 40 messages and 40 card texts per language,
the English beside the translation (issue 28: the native players' review)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "i18n_sample.py"


@pytest.fixture(scope="module")
def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("i18n_sample", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def printed(script: ModuleType, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert script.main(list(args)) == 0
    return capsys.readouterr().out


def test_the_sample_is_40_messages_and_40_card_texts_the_same_every_run(
    script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    first = printed(script, capsys, "--lang", "ko")
    assert first == printed(script, capsys, "--lang", "ko", "--seed", str(script.DEFAULT_SEED))
    assert "--- messages.po: 40 of " in first and "--- cards.po: 40 of " in first
    assert first.count("\n  en: ") == 80
    assert first != printed(script, capsys, "--lang", "ko", "--seed", "7")


def test_each_language_has_its_own_sample(
    script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    out = printed(script, capsys, "--count", "3")
    assert [line for line in out.splitlines() if line.startswith("====")] == [
        f"==== {code} (seed {script.DEFAULT_SEED}) ====" for code in script.LOCALES
    ]


def test_a_bad_argument_is_refused(script: ModuleType) -> None:
    with pytest.raises(SystemExit):
        script.main(["--lang", "xx"])
    with pytest.raises(SystemExit):
        script.main(["--count", "0"])
