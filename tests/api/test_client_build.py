"""The client's version (app/web/build.py): the page names its files under ``/v/<version>/``, the
browser keeps them for good, and a changed file is a new version."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.errors import install_handlers
from app.web.build import IMMUTABLE
from app.web.client import client_router

ROOT = Path(__file__).resolve().parents[2]
PAGE = """<!doctype html>
<link rel="stylesheet" href="/css/app.css">
<link rel="icon" href="/favicon.svg">
<script type="module" src="/js/main.js"></script>
"""


@pytest.fixture
def static(tmp_path: Path) -> Path:
    root = tmp_path / "static"
    (root / "js").mkdir(parents=True)
    (root / "css").mkdir()
    (root / "i18n").mkdir()
    (root / "index.html").write_text(PAGE)
    (root / "favicon.svg").write_text("<svg/>")
    (root / "js" / "main.js").write_text('import { a } from "./a.js";\nconsole.log(a);\n')
    (root / "js" / "a.js").write_text("export const a = 1;\n")
    (root / "css" / "app.css").write_text("body { color: black; }\n")
    (root / "i18n" / "en.json").write_text("{}")
    return root


def client_of(root: Path) -> TestClient:
    app = FastAPI()
    install_handlers(app)
    app.include_router(client_router(root))
    return TestClient(app)


def version_of(page: str) -> str:
    found = re.search(r'src="/v/([0-9a-f]{16})/js/main\.js"', page)
    assert found, page
    return found.group(1)


def test_the_page_names_its_files_under_the_version_and_they_are_kept_for_good(
    static: Path,
) -> None:
    http = client_of(static)
    page = http.get("/t/abc")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
    v = version_of(page.text)
    assert f'href="/v/{v}/css/app.css"' in page.text
    assert 'href="/favicon.svg"' in page.text  # only the module graph and the stylesheets
    for path, body in (("js/main.js", b"import"), ("js/a.js", b"export"), ("css/app.css", b"body")):
        r = http.get(f"/v/{v}/{path}")
        assert r.status_code == 200 and r.content.startswith(body)
        assert r.headers["cache-control"] == IMMUTABLE
    # the plain names still answer, and are asked again each time
    plain = http.get("/js/a.js")
    assert plain.status_code == 200 and "immutable" not in plain.headers.get("cache-control", "")


def test_a_changed_file_is_a_new_version_and_an_old_name_is_not_kept(static: Path) -> None:
    http = client_of(static)
    old = version_of(http.get("/").text)
    (static / "js" / "a.js").write_text("export const a = 22;\n")
    new = version_of(http.get("/").text)
    assert new != old
    fresh = http.get(f"/v/{new}/js/a.js")
    assert fresh.headers["cache-control"] == IMMUTABLE and b"22" in fresh.content
    # a page loaded before the change asks by the old name: today's file, not kept under it
    stale = http.get(f"/v/{old}/js/a.js")
    assert stale.status_code == 200 and b"22" in stale.content
    assert stale.headers["cache-control"] == "no-cache"


@pytest.mark.parametrize(
    "path",
    ["/v/{v}", "/v/{v}/", "/v/{v}/i18n/en.json", "/v/{v}/js/none.js", "/v/{v}/favicon.svg"],
)
def test_only_files_of_the_versioned_folders_have_versioned_names(static: Path, path: str) -> None:
    http = client_of(static)
    v = version_of(http.get("/").text)
    r = http.get(path.format(v=v))
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_the_modules_import_each_other_by_relative_names() -> None:
    """A module graph loaded under one version stays under it: no module names another by an
    absolute path (which would load a second copy of it, outside the version)."""
    absolute = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']/""")
    found = [
        f"{f.name}: {line.strip()}"
        for f in sorted((ROOT / "static" / "js").glob("*.js"))
        for line in f.read_text().splitlines()
        if absolute.search(line)
    ]
    assert not found, found
