"""The layers of app/ (docs/architecture.md, "Layers") hold: no package imports a higher layer,
a feature imports another feature of its own layer only when the contract names that edge, and
no import cycle joins two packages. Checked on the source (ast), without importing anything.

The transport (app/realtime) knows no feature: the features it serves are handed to it at
start-up (``create_app``), so no module under app/realtime imports one.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "app"
CONTRACT = ROOT / "docs" / "architecture.md"

# Layers whose packages are features: a sideways import between two of them must be named.
FEATURE_LAYERS = frozenset({"base features", "tables", "features"})


@dataclass(frozen=True)
class Contract:
    rank: dict[str, int]  # package -> its layer's rank (0 = lowest)
    layer: dict[str, str]  # package -> its layer's name
    sideways: frozenset[tuple[str, str]]  # named imports between features of one layer


@dataclass(frozen=True)
class Edge:
    source: str  # importing module, e.g. app.pace.book
    target: str  # imported module, e.g. app.pace.repository
    where: str  # file:line


def contract(text: str) -> Contract:
    """The fenced ``layers`` block of docs/architecture.md: one layer a line, highest first,
    ``<rank> <name>: <packages>``; then ``sideways: a>b c>d`` lines."""
    block = re.search(r"```layers\n(.*?)```", text, re.S)
    assert block, "docs/architecture.md has no ```layers block"
    rank: dict[str, int] = {}
    layer: dict[str, str] = {}
    sideways: set[tuple[str, str]] = set()
    for line in block.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        head, _, body = line.partition(":")
        if head == "sideways":
            for pair in body.split():
                a, _, b = pair.partition(">")
                sideways.add((a, b))
            continue
        number, _, name = head.partition(" ")
        for package in body.split():
            assert package not in rank, f"{package} is in two layers"
            rank[package] = int(number)
            layer[package] = name.strip()
    return Contract(rank, layer, frozenset(sideways))


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports_of(path: Path) -> Iterator[tuple[str, int]]:
    """Every app module a file imports (``from a import b`` names a.b when b is a module)."""
    module = module_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            for alias in node.names:
                full = f"{origin}.{alias.name}"
                yield (full if is_module(full) else origin), node.lineno


def package_of(module: str) -> str | None:
    """app.tables.play -> tables; app.clock -> clock; app -> None."""
    parts = module.split(".")
    return parts[1] if parts[0] == "app" and len(parts) > 1 else None


def edges() -> list[Edge]:
    out = []
    for path in sorted(APP.rglob("*.py")):
        source = module_of(path)
        for target, line in imports_of(path):
            if package_of(target) is not None and package_of(target) != package_of(source):
                out.append(Edge(source, target, f"{path.relative_to(ROOT)}:{line}"))
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one package (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def violations(found: list[Edge], c: Contract) -> list[str]:
    """Every import the contract forbids."""
    bad = []
    for e in found:
        a, b = package_of(e.source), package_of(e.target)
        assert a is not None and b is not None
        if c.rank[a] < c.rank[b]:
            bad.append(f"{e.where}: {c.layer[a]} {a} imports {c.layer[b]} {b} ({e.target})")
        elif c.rank[a] == c.rank[b] and c.layer[a] in FEATURE_LAYERS and (a, b) not in c.sideways:
            bad.append(f"{e.where}: {a} imports {b} ({e.target}), a sideways import not named")
    graph: dict[str, set[str]] = {}
    for e in found:
        a, b = package_of(e.source), package_of(e.target)
        assert a is not None and b is not None
        graph.setdefault(a, set()).add(b)
    bad += [f"import cycle: {' <-> '.join(group)}" for group in cycles(graph)]
    return bad


def test_every_package_has_a_layer() -> None:
    c = contract(CONTRACT.read_text(encoding="utf-8"))
    packages = {
        p.stem if p.is_file() else p.name
        for p in APP.iterdir()
        if (p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").is_file()
    }
    assert sorted(packages - set(c.rank)) == [], "place these in docs/architecture.md, Layers"
    assert sorted(set(c.rank) - packages) == [], "the contract names packages that do not exist"
    assert c.rank["rules"] == 0, "the engine is the lowest layer"


def test_no_import_goes_up_a_layer_sideways_unnamed_or_round_a_cycle() -> None:
    c = contract(CONTRACT.read_text(encoding="utf-8"))
    assert violations(edges(), c) == []


def test_the_transport_imports_no_feature() -> None:
    """Said on its own, so that a failure names it: app/realtime is handed the features."""
    c = contract(CONTRACT.read_text(encoding="utf-8"))
    upward = [
        f"{e.where}: {e.target}"
        for e in edges()
        if package_of(e.source) == "realtime"
        and c.rank[str(package_of(e.target))] > c.rank["realtime"]
    ]
    assert upward == []


def test_the_checker_sees_an_upward_import_a_sideways_one_and_a_cycle() -> None:
    c = Contract(
        rank={"db": 1, "tables": 2, "chat": 3, "bots": 3},
        layer={"db": "storage", "tables": "tables", "chat": "features", "bots": "features"},
        sideways=frozenset({("chat", "bots")}),
    )
    up = [Edge("app.db.models", "app.tables.status", "x:1")]
    assert violations(up, c) == ["x:1: storage db imports tables tables (app.tables.status)"]
    named = [Edge("app.chat.feed", "app.bots.service", "x:2")]
    assert violations(named, c) == []
    round_ = [*named, Edge("app.bots.service", "app.chat.feed", "x:3")]
    assert violations(round_, c) == [
        "x:3: bots imports chat (app.chat.feed), a sideways import not named",
        "import cycle: bots <-> chat",
    ]


def test_the_server_never_imports_the_research_package() -> None:
    """app/research (the PettingZoo environment and the OpenSpiel game, an optional extra) sits
    above every layer of the server: no module outside it imports it."""
    c = contract(CONTRACT.read_text(encoding="utf-8"))
    assert c.rank["research"] == max(c.rank.values())
    assert [r for p, r in c.rank.items() if r == c.rank["research"]] == [c.rank["research"]]
    inward = [
        f"{e.where}: {e.target}"
        for e in edges()
        if package_of(e.target) == "research" and package_of(e.source) != "research"
    ]
    assert inward == []


RESEARCH_ONLY = ("app.research", "numpy", "pettingzoo", "gymnasium", "pyspiel", "open_spiel")


def test_starting_the_server_loads_no_research_module() -> None:
    """Building the application and its command line (in a fresh interpreter) loads neither the
    research package nor its extra's libraries."""
    import subprocess
    import sys

    probe = (
        "import sys, app.main, app.admin; app.main.create_app(); "
        f"print(sorted(m for m in sys.modules if m.startswith({RESEARCH_ONLY!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
