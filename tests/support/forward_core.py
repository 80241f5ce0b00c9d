"""Builds and loads the endgame tables' independent check (``native/forward.c``) as its own
cffi module, ``_forward``, beside this file: a test and benchmark tool, so the product's
native core (``companion/ai/native``) does not carry it. It compiles on first use, and again
only when its sources are newer than the module; the module is moved into place in one step,
so two test workers that build at once both end with a whole one."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NATIVE = HERE / "native"
SOURCES = (NATIVE / "forward.c", NATIVE / "forward.h", Path(__file__).resolve())
NAME = "_forward"


def target() -> Path:
    return NATIVE / (NAME + importlib.machinery.EXTENSION_SUFFIXES[0])


def _build() -> None:
    from cffi import FFI

    ffi = FFI()
    ffi.cdef((NATIVE / "forward.h").read_text())
    ffi.set_source(NAME, '#include <stdint.h>\n#include "forward.h"\n',
                   sources=[str(NATIVE / "forward.c")], include_dirs=[str(NATIVE)],
                   extra_compile_args=["-O3", "-std=gnu99"])
    out = target()
    with tempfile.TemporaryDirectory() as tmp:
        built = Path(ffi.compile(tmpdir=tmp, verbose=False))
        part = out.with_name(f"{out.name}.{os.getpid()}.part")
        shutil.copyfile(built, part)
        os.replace(part, out)


def forward_module() -> Any:
    """The compiled check, built first when missing or stale; None with no C compiler."""
    out = target()
    if not out.exists() or out.stat().st_mtime < max(s.stat().st_mtime for s in SOURCES):
        if shutil.which(os.environ.get("CC", "gcc")) is None:
            return None
        _build()
    if str(NATIVE) not in sys.path:
        sys.path.insert(0, str(NATIVE))
    return importlib.import_module(NAME)
