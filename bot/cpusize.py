"""How many CPU workers this process should start by default (``CPU_WORKERS`` unset): the CPUs it may use, i.e. its
affinity mask (cpuset), lowered to its cgroup's CPU quota (v2 ``cpu.max``, v1 CFS quota; parent cgroups included),
rounded up: ``docker run --cpus=0.5`` gives 1 worker, not ``os.cpu_count()``."""

from __future__ import annotations

import os
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_SELF_CGROUP = Path("/proc/self/cgroup")


def default_cpu_workers(
    *, cgroup_root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_SELF_CGROUP, affinity: int | None = None
) -> int:
    """The default ``CPU_WORKERS``: how many CPUs this process may really use, at least 1.

    The count of CPUs in the process's affinity mask (``os.sched_getaffinity``: a container's cpuset,
    ``taskset``), lowered to a CPU quota, rounded up: cgroup v2 ``cpu.max`` (``"50000 100000"`` = 0.5 CPU; ``max``
    = none) or cgroup v1 ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` (``-1`` = none), read for the process's own
    cgroup (``/proc/self/cgroup``) and each parent up to ``cgroup_root``, the smallest quota winning; a
    container's namespaced ``cgroup_root`` itself is read too. ``docker run --cpus=0.5`` gives 1, ``--cpus=2.5``
    gives 3, ``--cpuset-cpus=0,1`` gives at most 2. Unreadable or malformed files count as no quota (never
    raises). ``affinity`` overrides the mask's size (tests).
    """
    cpus = affinity if affinity is not None else _affinity_count()
    quota = _cgroup_quota(cgroup_root, proc_cgroup)
    if quota is not None:
        cpus = min(cpus, max(1, -(-quota[0] // quota[1])))  # ceil(quota / period)
    return max(1, cpus)


def _affinity_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def _cgroup_quota(root: Path, proc_cgroup: Path) -> tuple[int, int] | None:
    """The smallest ``(quota_us, period_us)`` (by ratio) over the process's cgroups (v2 and v1), or None."""
    try:
        lines = proc_cgroup.read_text().splitlines()
    except OSError:
        lines = []
    candidates: list[Path] = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        rel = path.strip().lstrip("/")
        if parts[0] == "0" and controllers == "":  # cgroup v2 (unified)
            bases = [root, root / "unified"]
        elif "cpu" in controllers.split(","):
            bases = [root / controllers, root / "cpu", root / "cpu,cpuacct"]
        else:
            continue
        for base in bases:
            here = base / rel if rel else base
            while True:
                candidates.append(here)
                if here == base or base not in here.parents:
                    break
                here = here.parent
    candidates += [root, root / "cpu", root / "cpu,cpuacct"]
    best: tuple[int, int] | None = None
    for folder in dict.fromkeys(candidates):
        found = _read_quota(folder)
        if found is not None and (best is None or found[0] * best[1] < best[0] * found[1]):
            best = found
    return best


def _read_quota(folder: Path) -> tuple[int, int] | None:
    try:
        text = (folder / "cpu.max").read_text().split()
        if len(text) == 2 and text[0] != "max" and int(text[0]) > 0 and int(text[1]) > 0:
            return int(text[0]), int(text[1])
    except (OSError, ValueError):
        pass
    try:
        quota = int((folder / "cpu.cfs_quota_us").read_text())
        period = int((folder / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return (quota, period) if quota > 0 and period > 0 else None
