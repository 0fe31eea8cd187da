"""A throwaway PostgreSQL server for the tests: Debian's `postgresql` package, a new
cluster in a temporary folder, listening on a free loopback port, gone afterwards.

`python -m tests.support.postgres --install` installs the package when it is missing (README's
test command runs it, so CI has the server). `python -m tests.support.postgres` starts a
cluster and prints its URL until Ctrl-C, to try the bot on PostgreSQL by hand.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from tests.support import debian


def binaries() -> Path | None:
    """The folder of initdb and pg_ctl (the newest installed version), if any."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit()
                   else 0)
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def install() -> int:
    """Install Debian's postgresql package unless it is there already."""
    return debian.install("postgresql", binaries, "the PostgreSQL tests")


_schemas = itertools.count(1)


async def fresh_database(server: str) -> str:
    """A database of its own for one test: a new schema on the shared server, named in
    the URL (libpq's `options` sets the session's `search_path`)."""
    import psycopg

    schema = f"t{os.getpid()}_{next(_schemas)}"
    async with await psycopg.AsyncConnection.connect(server, autocommit=True) as admin:
        await admin.execute(f"CREATE SCHEMA {schema}")
    return f"{server}{'&' if '?' in server else '?'}options=-csearch_path%3D{schema}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def cluster(durable: bool = False, local: bool = False) -> Iterator[str]:
    """A running server; yields the URL of its `postgres` database (user `ladder`).
    `durable`: PostgreSQL's own defaults (fsync on), as the benchmarks measure it.
    `local`: the URL reaches the server through its Unix socket, as libpq does by default
    on the server's machine, rather than over TCP."""
    folder = binaries()
    if folder is None:
        raise RuntimeError("PostgreSQL is not installed: "
                           "python -m tests.support.postgres --install")
    root = Path(tempfile.mkdtemp(prefix="ladderbot-pg-"))
    # PostgreSQL will not run as root: then the cluster belongs to the postgres user.
    as_user: list[str] = []
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(root, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = root / "data", _free_port()

    def run(*command: str) -> None:
        subprocess.run([*as_user, *command], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=120)

    run(str(folder / "initdb"), "-D", str(data), "-U", "ladder", "-A", "trust", "-E", "UTF8",
        "--locale=C", "--no-sync")
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c max_connections=50"
    if not durable:  # a throwaway server: durability is not what tests are about
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        # A deadlock the races provoke is found (and its unit tried again) in 50 ms, not
        # the default second: a /link and a /join sent at once met one in each of 20 tries.
        options += " -c deadlock_timeout=50ms"
    run(str(folder / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-o", options, "-w",
        "start")
    try:
        yield (f"postgresql://ladder@/postgres?host={root}&port={port}" if local
               else f"postgresql://ladder@127.0.0.1:{port}/postgres")
    finally:
        subprocess.run([*as_user, str(folder / "pg_ctl"), "-D", str(data), "-m", "immediate",
                        "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=60)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    if "--install" in sys.argv:
        sys.exit(install())
    with cluster() as url:
        print(url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            signal.pause()
