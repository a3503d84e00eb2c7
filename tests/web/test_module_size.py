"""No module of `companion/web/` (its sub-packages too) is over 400 lines (issue 27): a
module that grows past it is split along a seam, one purpose per module."""

from __future__ import annotations

from pathlib import Path

import companion.web

FOLDER = Path(companion.web.__file__).parent
MOST_LINES = 400


def lines_of(path: Path) -> int:
    """The lines of a file, as `wc -l` counts them (a last line without a newline too)."""
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_of_web_is_over_400_lines():
    modules = sorted(FOLDER.rglob("*.py"))
    assert len(modules) > 20  # the walk found the package's modules
    too_long = {
        str(path.relative_to(FOLDER)): lines_of(path)
        for path in modules
        if lines_of(path) > MOST_LINES
    }
    assert too_long == {}, f"over {MOST_LINES} lines (issue 27): {too_long}"


def test_the_count_is_wc_l(tmp_path: Path):
    """401 lines are counted as 401, with or without the last newline."""
    for text in ("x = 1\n" * 401, "x = 1\n" * 400 + "x = 1"):
        module = tmp_path / "long.py"
        module.write_text(text, encoding="utf-8")
        assert lines_of(module) == MOST_LINES + 1
