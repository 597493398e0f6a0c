"""Text shaped against whatever inspects a frame before its model does: the worst inputs we know
for a JSON scanner (long runs of quotes, backslashes and brackets, quotes escaped inside strings,
strings nested in objects) and valid frames with as many values as their size allows. Used by the
linear-work tests (tests/security/test_linear_inspection.py) and timed by bench/abuse.py."""

from __future__ import annotations

# Valid JSON with as many values as the size allows: refused by the walk after parsing (past
# the value cap), or, when small, by the model (the extra field).
VALID = ("many_values", "many_lists", "strings_in_lists", "nested_within_limit")


def worst_shapes(size: int) -> dict[str, str]:
    """Texts of about ``size`` characters, by name."""
    return {
        "quote_backslash": ('"\\' * size)[:size],
        "escaped_quotes": ('"' + '\\"' * size)[:size],
        "quotes": '"' * size,
        "backslashes": "\\" * size,
        "open_brackets": "[" * size,
        "closing_brackets": "]" * size,
        "bracket_quote": ('["' * size)[:size],
        "nested_strings": ('{"a":"' * size)[:size],
        "frame_of_quotes": ('{"type":"ping","ref":"' + '\\"' * size)[:size],
        "many_values": '{"type":"ping","x":[' + "0," * (size // 2) + "0]}",
        "many_lists": '{"type":"ping","x":[' + "[]," * (size // 3) + "[]]}",
        "strings_in_lists": '{"type":"ping","x":[' + '"\\"",' * (size // 5) + '""]}',
        "nested_within_limit": '{"type":"ping","x":['
        + ",".join(["[" * 28 + '"[{"' + "]" * 28] * (size // 64))
        + "]}",
    }
