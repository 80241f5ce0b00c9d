"""Helpers of the firmware tests (a unique module name: several test folders have helpers)."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEFAULT_MAP_TEXT = (REPO / "hardware" / "pinmap.toml").read_text(encoding="utf-8")
