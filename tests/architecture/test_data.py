"""Data is owned by its feature (docs/architecture.md, "Data"): a feature's repositories and
models are private to it. Another feature reads or writes its rows through its published
functions only (``app/<feature>/published.py``, or its service). Checked on the source (ast).

- No module of a feature imports another feature's private modules: ``repository``,
  ``*_repository``, ``store``, ``models``.
- No module of a feature imports a model another feature owns (the owner of a model is the
  module defining it: ``app/db/models/<feature>.py`` or ``app/<feature>/models.py``), except the
  models the contract shares and the reads it names, each with its reason.

The wiring layer (app/main, app/admin, app/devtools, app/metrics) is not a feature: the
operator's tools and the test stack see every row.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from tests.architecture.test_layers import (
    APP,
    CONTRACT,
    FEATURE_LAYERS,
    ROOT,
    contract,
    module_of,
    package_of,
)

PRIVATE = re.compile(r"^(repository|\w+_repository|store|models)$")


@dataclass(frozen=True)
class DataContract:
    shared: frozenset[str]  # models any feature may read (e.g. a person's name beside a row)
    reads: frozenset[tuple[str, str]]  # (feature, model) reads named with their reason
    everything: frozenset[str] = frozenset()  # features that see every model (a person's data)


def data_contract(text: str) -> DataContract:
    """The fenced ``data`` block: ``shared: Model ...``, ``reads: feature>Model ...`` and
    ``everything: feature ...`` lines (a ``#`` starts a comment)."""
    block = re.search(r"```data\n(.*?)```", text, re.S)
    assert block, "docs/architecture.md has no ```data block"
    shared: set[str] = set()
    reads: set[tuple[str, str]] = set()
    everything: set[str] = set()
    for line in block.group(1).splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        head, _, body = line.partition(":")
        if head.strip() == "shared":
            shared.update(body.split())
        elif head.strip() == "everything":
            everything.update(body.split())
        elif head.strip() == "reads":
            for pair in body.split():
                feature, _, model = pair.partition(">")
                reads.add((feature, model))
        else:
            raise AssertionError(f"unknown line in the data block: {line}")
    return DataContract(frozenset(shared), frozenset(reads), frozenset(everything))


def owners() -> dict[str, str]:
    """Model class -> the feature owning it."""
    found: dict[str, str] = {}
    files = [p for p in (APP / "db" / "models").glob("*.py") if p.stem not in ("__init__", "base")]
    files += list(APP.glob("*/models.py"))
    for path in files:
        owner = path.stem if path.parent.name == "models" else path.parent.name
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                assert node.name not in found, f"{node.name} is defined twice"
                found[node.name] = owner
    return found


def model_module(module: str) -> bool:
    return (
        module == "app.db.models"
        or module.startswith("app.db.models.")
        or (module.startswith("app.") and module.endswith(".models"))
    )


def type_only(tree: ast.Module) -> set[int]:
    """The ids of the imports under ``if TYPE_CHECKING:``: a class named in annotations only
    (a row the owner's published function hands out), never used at run time."""
    found: set[int] = set()
    for node in ast.walk(tree):
        test = node.test if isinstance(node, ast.If) else None
        if isinstance(test, ast.Name) and test.id == "TYPE_CHECKING":
            found.update(id(n) for n in ast.walk(node) if isinstance(n, ast.ImportFrom))
    return found


def runtime_imports(path: Path) -> list[ast.ImportFrom]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = type_only(tree)
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and id(n) not in skip and not n.level and n.module
    ]


def violations(c: DataContract, owner_of: dict[str, str], features: set[str]) -> list[str]:
    bad = []
    for path in sorted(APP.rglob("*.py")):
        source = module_of(path)
        me = package_of(source)
        if me not in features:
            continue
        for node in runtime_imports(path):
            assert node.module is not None
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            for target in targets:
                parts = target.split(".")
                other = package_of(target)
                if (
                    other in features
                    and other != me
                    and len(parts) == 3
                    and PRIVATE.match(parts[2])
                    and not (parts[2] == "models" and me in c.everything)
                ):
                    bad.append(f"{where}: {me} imports {target}, private to {other}")
            if model_module(node.module) and me not in c.everything:
                for alias in node.names:
                    owner = owner_of.get(alias.name)
                    if owner is None or owner == me or alias.name in c.shared:
                        continue
                    if (me, alias.name) not in c.reads:
                        bad.append(f"{where}: {me} uses {alias.name}, a model of {owner}")
    return sorted(set(bad))


def test_features_touch_only_their_own_rows() -> None:
    text = CONTRACT.read_text(encoding="utf-8")
    layers = contract(text)
    features = {p for p, name in layers.layer.items() if name in FEATURE_LAYERS}
    assert violations(data_contract(text), owners(), features) == []


def test_every_model_has_an_owning_feature_and_the_contract_names_real_ones() -> None:
    text = CONTRACT.read_text(encoding="utf-8")
    layers = contract(text)
    features = {p for p, name in layers.layer.items() if name in FEATURE_LAYERS}
    owner_of = owners()
    assert sorted(m for m, f in owner_of.items() if f not in features) == []
    c = data_contract(text)
    assert sorted(c.shared - set(owner_of)) == []
    assert sorted(m for _, m in c.reads if m not in owner_of) == []
    assert sorted(f for f, _ in c.reads if f not in features) == []
    assert sorted(c.everything - features) == []
    # a named read is one a feature still makes (the list does not outlive the code)
    used = {
        (package_of(module_of(p)), a.name)
        for p in APP.rglob("*.py")
        for n in runtime_imports(p)
        if model_module(str(n.module))
        for a in n.names
    }
    assert sorted(r for r in c.reads if r not in used) == []


def test_the_checker_sees_a_private_import_and_a_foreign_model() -> None:
    """The rule's checker on the source as it stands, against a contract that names nothing:
    the shared models and the named reads show up as breaks."""
    text = CONTRACT.read_text(encoding="utf-8")
    layers = contract(text)
    features = {p for p, name in layers.layer.items() if name in FEATURE_LAYERS}
    empty = violations(DataContract(frozenset(), frozenset()), owners(), features)
    assert any("uses Profile, a model of profiles" in v for v in empty)
    assert any(v.startswith("app/mydata/") and "private to solo" in v for v in empty)
    named = data_contract(text)
    for feature, model in sorted(named.reads):
        assert any(f"{feature} uses {model}, a model of" in v for v in empty), (feature, model)
