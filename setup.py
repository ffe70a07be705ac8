"""Build hook for the optional compiled search core of the Constructo AI (``engine/constructo/_csearch.c``).

Everything else is configured in ``pyproject.toml``. The extension is ``optional``: without a C compiler
``pip install`` still succeeds and the AI runs its pure-Python search (``engine.constructo.core`` logs a notice).
"""

import sys

from setuptools import Extension, setup

args = [] if sys.platform == "win32" else ["-O3", "-std=c11", "-D_DEFAULT_SOURCE"]
setup(
    ext_modules=[
        Extension(
            "engine.constructo._csearch",
            sources=["engine/constructo/_csearch.c"],
            extra_compile_args=args,
            optional=True,
        )
    ]
)
