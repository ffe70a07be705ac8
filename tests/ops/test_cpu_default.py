"""Issue 23 point 5: the default ``CPU_WORKERS`` follows the CPUs a container may use (affinity, cgroup v2
``cpu.max``, cgroup v1 CFS quota), not ``os.cpu_count()``. Fake cgroup trees in ``tmp_path``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Config, default_cpu_workers


def tree(tmp_path: Path, files: dict[str, str], proc: str) -> tuple[Path, Path]:
    root = tmp_path / "cgroup"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    root.mkdir(exist_ok=True)
    proc_file = tmp_path / "proc_self_cgroup"
    proc_file.write_text(proc)
    return root, proc_file


@pytest.mark.parametrize(
    ("cpu_max", "affinity", "expected"),
    [
        ("50000 100000\n", 8, 1),  # --cpus=0.5: one worker, not eight
        ("250000 100000\n", 8, 3),  # --cpus=2.5: rounded up
        ("400000 100000\n", 2, 2),  # the cpuset (affinity) is smaller than the quota
        ("max 100000\n", 6, 6),  # no quota
        ("garbage\n", 4, 4),  # unreadable: no quota, never raises
    ],
)
def test_cgroup_v2_cpu_max_in_a_namespaced_container(
    tmp_path: Path, cpu_max: str, affinity: int, expected: int
) -> None:
    root, proc = tree(tmp_path, {"cpu.max": cpu_max}, "0::/\n")
    assert default_cpu_workers(cgroup_root=root, proc_cgroup=proc, affinity=affinity) == expected


def test_cgroup_v2_host_path_and_the_smallest_parent_quota(tmp_path: Path) -> None:
    root, proc = tree(
        tmp_path,
        {
            "system.slice/cpu.max": "150000 100000\n",  # the parent: 1.5 CPU
            "system.slice/tablebot.service/cpu.max": "max 100000\n",
        },
        "0::/system.slice/tablebot.service\n",
    )
    assert default_cpu_workers(cgroup_root=root, proc_cgroup=proc, affinity=16) == 2


def test_cgroup_v1_cfs_quota(tmp_path: Path) -> None:
    root, proc = tree(
        tmp_path,
        {
            "cpu,cpuacct/cpu.cfs_quota_us": "50000\n",
            "cpu,cpuacct/cpu.cfs_period_us": "100000\n",
        },
        "4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n0::/\n",
    )
    assert default_cpu_workers(cgroup_root=root, proc_cgroup=proc, affinity=4) == 1


def test_cgroup_v1_unlimited_and_no_cgroup_at_all(tmp_path: Path) -> None:
    root, proc = tree(tmp_path, {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, "1:cpu:/\n")
    assert default_cpu_workers(cgroup_root=root, proc_cgroup=proc, affinity=3) == 3
    assert default_cpu_workers(cgroup_root=tmp_path / "none", proc_cgroup=tmp_path / "none", affinity=5) == 5


def test_config_default_is_this_function_and_cpu_workers_still_overrides() -> None:
    env = {"DISCORD_TOKEN": "t"}
    assert Config.from_env(env).cpu_workers == default_cpu_workers() >= 1
    assert Config.from_env({**env, "CPU_WORKERS": "0"}).cpu_workers == 0
