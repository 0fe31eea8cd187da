"""What the benchmarks ran on."""

from __future__ import annotations

import os
import platform
import resource
import sqlite3
import sys
from typing import Any


def describe_machine() -> dict[str, Any]:
    """CPU, cores, memory, Python and SQLite versions."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = None
    try:
        with open("/proc/meminfo") as info:
            memory = round(int(info.readline().split()[1]) / 1024 / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gb": memory,
            "python": sys.version.split()[0], "sqlite": sqlite3.sqlite_version,
            "system": f"{platform.system()} {platform.release()}"}


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
