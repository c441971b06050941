"""The floors stay floors: core ← games ← analysis ← cli/widgets, no import circles, one game never reads another.

Every ``import`` in every module is read (also the ones inside functions: a lazy import is still a
dependency), so a shortcut that makes the core reach up into a game fails here.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FLOOR = {"core": 0, "games": 1, "analysis": 2, "cli": 3, "widgets": 3}  # as docs/architecture.md draws them
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def module_files() -> dict[str, Path]:
    """Dotted module name → file, for sheetkit/ and widgets/ (which imports as sheetkit.widgets)."""
    found: dict[str, Path] = {}
    for base, prefix in ((ROOT / "sheetkit", "sheetkit"), (ROOT / "widgets", "sheetkit.widgets")):
        for path in base.rglob("*.py"):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join([prefix, *parts])] = path
    return found


MODULES = module_files()


def imports_of(name: str, path: Path) -> set[str]:
    """The sheetkit modules ``name`` imports, resolved to modules where a name is one, else its package."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in MODULES and "." in t:
                t = t.rsplit(".", 1)[0]
            if t in MODULES and t != name:
                out.add(t)
    return out


def runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node that runs: ``if TYPE_CHECKING:`` blocks (type hints only) are left out."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend(child.orelse)
                continue
            todo.append(child)
    return out


GRAPH = {name: imports_of(name, path) for name, path in MODULES.items()}


def floor(name: str) -> int | None:
    """The floor of a module (None for the top-level package and ``__main__``)."""
    parts = name.split(".")
    return FLOOR.get(parts[1]) if len(parts) > 1 else None


def test_each_floor_imports_only_floors_below_it():
    """The core imports no game, a game no analysis, analysis no widget or CLI (docs/architecture.md)."""
    wrong = []
    for name, targets in GRAPH.items():
        mine = floor(name)
        if mine is None:
            continue
        for t in targets:
            theirs = floor(t)
            # cli and widgets share no floor: both sit on analysis and neither needs the other
            if theirs is not None and (theirs > mine or (theirs == mine and {name.split(".")[1], t.split(".")[1]}
                                                         == {"cli", "widgets"})):
                wrong.append(f"{name} imports {t}")
    assert not wrong, "imports that reach up a floor:\n" + "\n".join(sorted(wrong))


@pytest.mark.parametrize("family", ["sheetkit.games", "sheetkit.widgets"])
def test_one_game_never_imports_another(family):
    """A game's rules (and its UI) stand alone, so a new game can be added or removed without touching the others."""
    depth = len(family.split(".")) + 1
    folder = ROOT / "sheetkit" / "games" if family == "sheetkit.games" else ROOT / "widgets"
    games = {d.name for d in folder.iterdir() if (d / "__init__.py").exists()} - {"lessons"}
    wrong = []
    for name, targets in GRAPH.items():
        parts = name.split(".")
        if not name.startswith(family + ".") or len(parts) < depth or parts[depth - 1] not in games:
            continue
        for t in targets:
            tp = t.split(".")
            other = tp[depth - 1] if t.startswith(family + ".") and len(tp) >= depth else None
            if other in games and other != parts[depth - 1]:
                wrong.append(f"{name} imports {t}")
    assert len(games) >= 2, games
    assert not wrong, "\n".join(wrong)


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the groups of modules that import each other round a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def test_no_import_circles_anywhere():
    """No set of sheetkit modules imports each other round a circle (function-level imports count too)."""
    circles = strongly_connected(GRAPH)
    assert not circles, "import circles:\n" + "\n".join(" → ".join(c) for c in circles)


def test_the_circle_finder_finds_a_circle():
    """The check above can fail: a made-up core → games → core loop is reported."""
    fake = {k: set(v) for k, v in GRAPH.items()}
    fake["sheetkit.core.records"].add("sheetkit.games.avenue.spec")
    assert any("sheetkit.core.records" in c for c in strongly_connected(fake))


def test_core_stands_alone_and_still_finds_the_games():
    """Importing the core loads no game; asking the registry finds every built-in game through entry points."""
    code = (
        "import sys\n"
        "import sheetkit.core.records, sheetkit.core.registry, sheetkit.core.play, sheetkit.core.codes\n"
        "assert not [m for m in sys.modules if m.startswith(('sheetkit.games', 'sheetkit.analysis', "
        "'sheetkit.widgets', 'ipywidgets', 'ipycanvas'))], sorted(sys.modules)\n"
        "from sheetkit.core.registry import all_games\n"
        "print(' '.join(g.name for g in all_games()))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    names = out.stdout.split()
    assert {"avenue", "kingdom-maps"} <= set(names)


def test_engine_never_imports_the_widget_toolkits():
    """sheetkit/ (everything but the widget floor) runs without ipywidgets or ipycanvas."""
    wrong = []
    for name, path in MODULES.items():
        if name.startswith("sheetkit.widgets"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            wrong += [f"{name} imports {m}" for m in mods if m.split(".")[0] in {"ipywidgets", "ipycanvas", "IPython"}]
    assert not wrong, wrong


def test_every_package_folder_is_in_the_wheel():
    """pyproject.toml lists each package by hand (widgets/ maps to sheetkit.widgets): a folder left out is
    missing from a wheel or Binder install, where ``import sheetkit.widgets`` then fails."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    folders = {name for name, path in MODULES.items() if path.name == "__init__.py"}
    assert folders - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"


def toolkit_imports(path: Path) -> list[str]:
    """The widget toolkits (ipywidgets, ipycanvas, IPython) a file imports itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        mods = [a.name for a in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        found += [m for m in mods if m.split(".")[0] in {"ipywidgets", "ipycanvas", "IPython"}]
    return found


def widget_free(name: str, graph: dict[str, set[str]]) -> list[str]:
    """What makes module ``name`` need a widget toolkit: each module it loads (itself included) that imports one."""
    seen, todo, wrong = set(), [name], []
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        wrong += [f"{m} imports {t}" for t in toolkit_imports(MODULES[m])]
        todo.extend(graph.get(m, ()))
    return wrong


INTENT = sorted(n for n in MODULES if n.startswith("sheetkit.widgets.") and n.rsplit(".", 1)[-1] == "intent")


def test_every_table_has_an_intent_layer_that_runs_without_a_widget():
    """What a click means (widgets/<game>/intent.py) is plain Python over the engine: tested without a browser, and
    nothing it loads imports ipywidgets or ipycanvas (docs/architecture.md, the tables)."""
    assert {n.split(".")[2] for n in INTENT} >= {"avenue", "kingdom_maps", "key_harvest"}
    wrong = [w for n in INTENT for w in widget_free(n, GRAPH)]
    assert not wrong, wrong


def test_the_widget_free_check_can_fail():
    """An intent layer that reached for a widget module would be reported."""
    fake = {k: set(v) for k, v in GRAPH.items()}
    fake[INTENT[0]].add("sheetkit.widgets.table_layout")
    assert widget_free(INTENT[0], fake)


def test_the_architecture_doc_draws_these_floors_and_names_every_module():
    """docs/architecture.md gives each package the floor ``FLOOR`` gives it, and its core and analysis rows and
    its widget map name every module on disk (a new module is added to the map with its job)."""
    rows = re.findall(r"^\| (\d) \| `sheetkit\.(\w+)", DOC, re.M)
    assert {package: int(n) for n, package in rows} == FLOOR
    unnamed = []
    for package in ("core", "analysis"):
        row = next(ln for ln in DOC.splitlines() if ln.startswith(f"| {FLOOR[package]} | `sheetkit.{package}`"))
        unnamed += [name for name in MODULES
                    if name.startswith(f"sheetkit.{package}.") and f"`{name.rsplit('.', 1)[1]}`" not in row]
    widget_map = DOC.split("### The widget floor")[1].split("```")[1].splitlines()
    for name, path in MODULES.items():
        if not name.startswith("sheetkit.widgets.") or path.name == "__init__.py":
            continue
        folder = path.parent.relative_to(ROOT / "widgets").as_posix()
        if folder == ".":
            named = any(ln.startswith("  ") and path.name in ln[2:].split("  ")[0].split() for ln in widget_map)
        else:
            named = any(ln.startswith(f"  {folder}/") and re.search(rf"\b{path.stem}\b", ln) for ln in widget_map)
        if not named:
            unnamed.append(name)
    assert not unnamed, "name these in docs/architecture.md (floors table or widget map):\n" + "\n".join(unnamed)
