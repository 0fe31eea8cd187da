"""The CPU time a local PostgreSQL server has used, from /proc (Linux): its postmaster's
own and its reaped backends' (`cutime`, `cstime`), and every live child's."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2:].split()  # the fields after the command's name


def _children(parent: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int(_stat(int(entry.name))[1]) == parent:
                    found.append(int(entry.name))
            except (OSError, ValueError):
                continue  # gone meanwhile
    return found


def server_cpu_s(db: str) -> float:
    """Seconds of CPU the server of `db` has used so far: 0 for a SQLite file or a server
    whose postmaster is not this machine's (a URL without a socket folder)."""
    if not db.startswith("postgresql:"):
        return 0.0
    folder = parse_qs(urlsplit(db).query).get("host", [""])[0]
    pidfile = Path(folder) / "data" / "postmaster.pid"
    if not folder or not pidfile.exists():
        return 0.0
    postmaster = int(pidfile.read_text().split()[0])
    # state, ppid, ... utime (index 11), stime, cutime, cstime
    fields = _stat(postmaster)
    ticks = sum(int(f) for f in fields[11:15])
    for child in _children(postmaster):
        try:
            ticks += sum(int(f) for f in _stat(child)[11:13])
        except OSError:
            continue  # exited meanwhile: counted in the postmaster's cutime next time
    return ticks / TICKS
