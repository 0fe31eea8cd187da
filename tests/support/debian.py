"""Debian packages the tests need (Chromium, PostgreSQL), installed when missing by the
`--install` step of README's test command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable


def install(package: str, present: Callable[[], object], purpose: str) -> int:
    """apt-get install `package` unless `present()` says it is there; 0 when it is."""
    if present():
        return 0
    apt = shutil.which("apt-get")
    if apt is None:
        print(f"tests: no {package} and no apt-get; install {package} by hand",
              file=sys.stderr)
        return 1
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print(f"tests: installing Debian's {package} for {purpose} ...", flush=True)
    for command in ([*sudo, apt, "update", "-qq"],
                    [*sudo, apt, "install", "-y", "-qq", package]):
        done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL)
        if done.returncode != 0:
            return done.returncode
    return 0 if present() else 1
