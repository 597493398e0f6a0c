"""The guided game of tests/browser/test_guide.py in Czech on a phone: a module of its own, so
that the two guided games (each clicked past round 1) run on two workers at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_guide import guided_game_past_round_1

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_guided_game_leads_past_round_1_in_czech_on_a_phone(
    server: Any, browser: Any, artifacts: Path
) -> None:
    guided_game_past_round_1(server, browser, artifacts, "cs", "phone")
