"""Issue 23 point 5, read from the files (the image itself is built and run by ``tools/docker_check.sh``): the
dependencies are installed from the hashed lock before any source is copied, the runtime user is numeric, and
the lock pins every runtime dependency of ``pyproject.toml``."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def stages() -> list[list[str]]:
    out: list[list[str]] = []
    for line in (REPO / "Dockerfile").read_text().replace("\\\n", " ").splitlines():
        if line.startswith("FROM "):
            out.append([])
        if out and re.match(r"[A-Z]+ ", line):
            out[-1].append(line)
    return out


def test_dependencies_from_the_lock_before_the_sources_and_a_regular_install() -> None:
    build, runtime = stages()
    lock = next(i for i, line in enumerate(build) if "--require-hashes -r /tmp/requirements.lock" in line)
    first_source = next(
        i for i, line in enumerate(build) if line.startswith("COPY ") and "requirements.lock" not in line
    )
    assert lock < first_source
    assert not [line for line in build + runtime if re.search(r"pip install[^&]* -e ", line)]
    assert re.fullmatch(r"USER \d+:\d+", next(line for line in runtime if line.startswith("USER ")))
    assert not [line for line in runtime if line.startswith("COPY ") and "--from=build" not in line]


def test_the_lock_pins_every_runtime_dependency_with_hashes() -> None:
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    lock = (REPO / "requirements.lock").read_text()
    pinned = {
        m.group(1).lower().replace("_", "-").replace(".", "-")
        for m in re.finditer(r"^([A-Za-z0-9._-]+)==\S+ \\\n\s+--hash=sha256:", lock, re.M)
    }
    wanted = {re.split(r"[<>=!~ \[]", d, maxsplit=1)[0].lower().replace("_", "-").replace(".", "-") for d in deps}
    assert wanted <= pinned, wanted - pinned
    assert "setuptools" in pinned  # the build backend of the image's --no-build-isolation install
