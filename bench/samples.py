"""py-spy's samples of a server, read: bench/profile.py and bench/restart.py print them."""

from __future__ import annotations

import os
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _function(frame: str) -> str:
    """``name (file:line)`` → ``name file`` (a function's lines added up), paths shortened."""
    found = re.match(r"(.*) \((.*?)(?::\d+)?\)$", frame)
    if found is None:
        return frame
    name, file = found.groups()
    file = re.sub(r".*site-packages/", "", file.replace(str(ROOT) + os.sep, ""))
    file = re.sub(r".*/lib/python3\.\d+/", "", file)
    return f"{name} {file}"


def py_spy(pid: int, rate: int, out: str) -> list[str]:
    """The command that samples process ``pid`` until it is sent SIGINT (then writes ``out``):
    only the thread holding the GIL, every thread, without pausing the process."""
    return [
        str(Path(sys.executable).parent / "py-spy"),
        "record",
        *("--pid", str(pid), "--rate", str(rate)),
        *("--format", "raw", "--output", out),
        *("--gil", "--threads", "--nonblocking"),
    ]


def report_samples(path: str, moves: int, rate: int, top: int, unit: str = "move") -> None:
    """py-spy's raw samples: the functions by their own samples and by their samples with what
    they call (the app's), as shares and as milliseconds per ``unit`` (``moves`` of them; a
    sample stands for 1/rate s)."""
    own: Counter[str] = Counter()
    within: Counter[str] = Counter()
    total = 0
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [_function(f) for f in stack.split(";")[1:]]  # (the first names the thread)
        if frames:
            own[frames[-1]] += n
        for f in set(frames):
            within[f] += n
    seconds = total / rate
    per = f" = {seconds / moves * 1e3:.3f} ms per {unit}" if moves else ""
    print(f"\nprofile: {total} samples, {seconds:.2f} s holding the GIL over {moves} {unit}s{per}")
    print(f"({path})")
    ours = Counter({f: n for f, n in within.items() if " app/" in f})
    for title, counts in (("own", own), ("with what they call (the app's)", ours)):
        print(f"\n-- top {top} by samples {title} (share, ms per {unit}) --")
        for name, n in counts.most_common(top):
            ms = n / rate / (moves or 1) * 1e3
            print(f"{n / max(total, 1) * 100:6.1f}% {ms:8.3f}  {name}")
