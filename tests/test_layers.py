"""The architecture, checked: the import contracts of ``pyproject.toml`` (``[tool.importlinter]``: the
layers shell → pages → games → ui → platform → game, the engines free of ``web``, games independent of
one another, no cycle between siblings), no module of ``web/`` or ``game/`` in an import cycle, and no
module of ``web/`` importing another module's private name (docs/web.md, "Layers")."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        graph.add_import(importer=a, imported=b)
    assert cycles(graph) == [["p.a", "p.b", "p.c"]]


def test_no_module_of_web_or_game_is_in_an_import_cycle() -> None:
    graph = grimp.build_graph("web", "game", cache_dir=None)  # imports inside functions count too
    assert cycles(graph) == []


def private_imports(path: Path) -> list[str]:
    """``from web.x import _name`` (or from game) and ``module._name`` on a module imported by name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level > 0 or (node.module or "").split(".")[0] in ("web", "game")):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path}:{node.lineno} imports {'.' * node.level}{node.module or ''}.{alias.name}")
                modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name.split(".")[0] for a in node.names
                           if a.name.split(".")[0] in ("web", "game"))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            found.append(f"{path}:{node.lineno} uses {node.value.id}.{node.attr}")
    return found


@pytest.mark.parametrize("tree", ["web", "game", "lexicon"])
def test_no_module_imports_a_private_name(tree: str) -> None:
    found = [hit for path in sorted((ROOT / tree).rglob("*.py")) for hit in private_imports(path)]
    assert found == []


def test_the_private_name_check_sees_both_forms(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from web.ui.charts import _marker, axes\nfrom web.platform import stats\nstats._load()\n"
                      "from .search import _Abort\n")
    assert [hit.split(" ", 1)[1] for hit in private_imports(sample)] == [
        "imports web.ui.charts._marker", "imports .search._Abort", "uses stats._load"]
