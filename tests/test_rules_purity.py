"""The rules package imports only the standard library and itself (../shared/DESIGN.md §3)."""

from __future__ import annotations

import ast
import pathlib
import sys

import companion.rules

RULES = pathlib.Path(companion.rules.__file__).parent


def imported_modules(path: pathlib.Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_rules_import_only_stdlib_and_rules():
    checked = 0
    for path in sorted(RULES.rglob("*.py")):
        for name in imported_modules(path):
            top = name.split(".")[0]
            allowed = name.startswith("companion.rules") or top in sys.stdlib_module_names
            assert allowed, f"{path.name} imports {name}"
            checked += 1
    assert checked > 10
