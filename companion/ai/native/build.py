"""Builds the native search core (``core.c``) with cffi, next to this file, as ``_core``.

    python -m companion.ai.native.build [--force]

``./dev`` and ``systemd/install.sh`` run it after installing the package; it compiles only
when the module is missing or older than its sources, so a repeated run costs nothing. With
no C compiler (or no Python headers) it says so and exits 1: the program then plays with the
Python search, which gives the same moves.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = (HERE / "core.c", HERE / "endgame.c", HERE / "core.h", Path(__file__).resolve())
MODULE = "companion.ai.native._core"


def target() -> Path:
    """Where the compiled module goes, named for this interpreter."""
    return HERE / ("_core" + importlib.machinery.EXTENSION_SUFFIXES[0])


def stale() -> bool:
    out = target()
    return not out.exists() or out.stat().st_mtime < max(src.stat().st_mtime for src in SOURCES)


def builder():
    from cffi import FFI     # a build-time import: the search runs without cffi's compiler parts

    ffi = FFI()
    ffi.cdef((HERE / "core.h").read_text())
    ffi.set_source(MODULE, '#include <stdint.h>\n#include "core.h"\n',
                   sources=[str(HERE / "core.c"), str(HERE / "endgame.c")],
                   include_dirs=[str(HERE)], extra_compile_args=["-O3", "-std=gnu99"])
    return ffi


def build(force: bool = False) -> Path:
    """Compile into a scratch folder, then move the module into place in one step (a running
    program keeps the one it loaded)."""
    out = target()
    if not force and not stale():
        return out
    with tempfile.TemporaryDirectory() as tmp:
        built = Path(builder().compile(tmpdir=tmp, verbose=False))
        part = out.with_name(out.name + f".{os.getpid()}.part")
        shutil.copyfile(built, part)
        os.replace(part, out)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="build the native search core")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    parser.add_argument("--quiet", action="store_true", help="say nothing when up to date")
    args = parser.parse_args(argv)
    if args.quiet and not args.force and not stale():
        return 0
    try:
        out = build(args.force)
    except Exception as exc:      # no compiler, no headers, no cffi: the Python search remains
        print(f"native search core not built ({exc.__class__.__name__}: {exc}); "
              "the computer uses the Python search", file=sys.stderr)
        return 1
    print(f"native search core: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
