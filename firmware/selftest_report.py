"""What the self-test found: one check per part, and the summary printed at the end."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TextIO


@dataclass
class Check:
    name: str
    ok: bool | None  # None: shown, but nobody confirmed it
    detail: str
    hints: list[str] = field(default_factory=list)


def report(checks: list[Check], out: TextIO) -> int:
    """Print the summary; the number of failed checks."""
    print(file=out)
    print("Result", file=out)
    for check in checks:
        mark = {True: "[ ok ]", False: "[FAIL]", None: "[look]"}[check.ok]
        print(f"  {mark} {check.name:<8} {check.detail}", file=out)
        for hint in check.hints:
            print(f"           -> {hint}", file=out)
    failed = sum(check.ok is False for check in checks)
    if failed:
        print(f"{failed} problem{'s' if failed > 1 else ''} found. Fix, then run the self-test again.", file=out)
    elif any(check.ok is None for check in checks):
        print("No fault found; the parts marked [look] need your eyes to confirm.", file=out)
    else:
        print("All good: the board is ready to play.", file=out)
    return failed
