"""`companion.web.present` has no import circle, not even one for type checking only: each
module imports only modules below it (the views and the wording helpers at the bottom)."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.web.present

PACKAGE = "companion.web.present"
FOLDER = Path(companion.web.present.__file__).parent


def imports_within(path: Path) -> set[str]:
    """The package's modules a module imports, anywhere in it (TYPE_CHECKING blocks too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.module == PACKAGE:
                found |= {alias.name for alias in node.names}
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module.removeprefix(PACKAGE + ".").split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name.removeprefix(PACKAGE + ".").split(".")[0])
    return found


def test_the_presenter_modules_import_each_other_without_a_circle():
    modules = {p.stem for p in FOLDER.glob("*.py") if p.stem != "__init__"}
    graph = {m: imports_within(FOLDER / f"{m}.py") & modules for m in modules}
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for imported in sorted(graph[module]):
            visit(imported, (*path, module))
        done.add(module)

    for module in sorted(modules):
        visit(module, ())
    # The wording helpers sit at the bottom: any view may use them.
    assert graph["words"] == set() and graph["views"] == {"words"}
