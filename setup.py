"""Build hook for the optional compiled search core of the Constructo AI (``engine/constructo/_csearch.c``).

Everything else is configured in ``pyproject.toml``. The extension is ``optional``: without a C compiler
``pip install`` still succeeds and the AI runs its pure-Python search (``engine.constructo.core`` logs a notice).
The build records a hash of the C source, so a stale build (the source edited, not rebuilt) is detected at
import and not used.
"""

import hashlib
import sys
from pathlib import Path

from setuptools import Extension, setup

SOURCE = "engine/constructo/_csearch.c"
digest = hashlib.sha256(Path(__file__).with_name("engine").joinpath("constructo", "_csearch.c").read_bytes())
macros = [("CORE_SOURCE_HASH", f'"{digest.hexdigest()[:16]}"')]
args = [] if sys.platform == "win32" else ["-O3", "-std=c11", "-D_DEFAULT_SOURCE"]
setup(
    ext_modules=[
        Extension(
            "engine.constructo._csearch",
            sources=[SOURCE],
            define_macros=macros,
            extra_compile_args=args,
            optional=True,
        )
    ]
)
