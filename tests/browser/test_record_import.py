"""Importing a game record in Chromium, on the records page: a file picker; a good record becomes
a replay of mine that opens; every refusal of the API is said in words beside the picker (in the
page's language), and changes nothing. And a replay that is not mine: one message, not two."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_endscreen import profile, shoot
from tests.browser.test_replay import DESKTOP, PHONE, WAIT, signed_in

pytestmark = [pytest.mark.browser]

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "records.example.json"


def record() -> dict[str, Any]:
    return dict(json.loads(EXAMPLE.read_text()))


def pick(page: Any, tmp: Path, name: str, content: str | dict[str, Any]) -> str:
    """Choose a file with ``content`` in the picker; the words said beside it."""
    path = tmp / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    page.get_by_test_id("record-import-file").set_input_files(str(path))
    said = page.get_by_test_id("record-import-said")
    said.and_(page.locator(".error-text")).wait_for(timeout=WAIT)
    return str(said.text_content())


def test_a_record_is_imported_from_the_records_page_and_its_replay_opens(
    server: Any, browser: Any, artifacts: Path, tmp_path: Path
) -> None:
    ctx = signed_in(browser, server, profile(server, "Ivo"), DESKTOP)
    page = ctx.new_page()
    page.goto(server.url("/records"))
    page.get_by_test_id("record-import").wait_for(timeout=WAIT)
    shoot(page, artifacts, "records-import-desktop")
    # Refusals, each in words; nothing is stored.
    assert "not readable JSON" in pick(page, tmp_path, "a.json", "{ not json")
    other = record() | {"format": "chess-pgn"}
    assert "not a Crown of Emara game record" in pick(page, tmp_path, "b.json", other)
    bad = record()
    bad["moves"] = copy.deepcopy(bad["moves"])
    bad["moves"][3]["seat"] = (bad["moves"][3]["seat"] + 1) % 3
    assert "Move 4 of the record is not allowed" in pick(page, tmp_path, "c.json", bad)
    short = record() | {"moves": record()["moves"][:40]}
    assert "not over yet" in pick(page, tmp_path, "d.json", short)
    shoot(page, artifacts, "records-import-refused-desktop")
    # The good one: the replay opens.
    path = tmp_path / "game.json"
    path.write_text(EXAMPLE.read_text())
    page.get_by_test_id("record-import-file").set_input_files(str(path))
    page.wait_for_url("**/r/*", timeout=WAIT)
    page.get_by_test_id("replay").wait_for(timeout=WAIT)
    assert page.get_by_test_id("replay-missing").count() == 0
    ctx.close()


def test_refusals_are_said_in_the_pages_language_on_a_phone(
    server: Any, browser: Any, artifacts: Path, tmp_path: Path
) -> None:
    ctx = signed_in(browser, server, profile(server, "Jana"), PHONE)
    ctx.add_init_script("localStorage.setItem('emara.lang','cs')")
    page = ctx.new_page()
    page.goto(server.url("/records"))
    page.get_by_test_id("record-import").wait_for(timeout=WAIT)
    short = record() | {"moves": record()["moves"][:40]}
    assert "hra v záznamu ještě neskončila" in pick(page, tmp_path, "d.json", short)
    shoot(page, artifacts, "records-import-refused-phone-cs")
    ctx.close()


def test_a_replay_that_is_not_mine_says_so_once(server: Any, browser: Any, artifacts: Path) -> None:
    ctx = signed_in(browser, server, profile(server, "Kim"), PHONE)
    page = ctx.new_page()
    for address in ("/r/AAAAAAAAAAAA", "/r/not-a-replay!"):
        page.goto(server.url(address))
        said = page.get_by_test_id("replay-refusal")
        said.wait_for(timeout=WAIT)
        assert "not yours to see" in str(said.text_content())
        assert page.get_by_test_id("error").count() == 0  # no second message besides
    shoot(page, artifacts, "replay-refused-phone")
    ctx.close()
