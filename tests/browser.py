"""Debian's Chromium for the browser test.

`python -m tests.browser --install` installs the `chromium` package when it is missing
(README's test command runs it, so CI has the browser); Playwright drives it through
`executable_path`, never downloading a browser of its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

# As this machine's notes advise for a closed network: no background connections.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str | None:
    """The Chromium executable, if installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def install() -> int:
    """Install Debian's chromium package unless it is there already."""
    if chromium():
        return 0
    apt = shutil.which("apt-get")
    if apt is None:
        print("tests.browser: no chromium and no apt-get; install Chromium by hand",
              file=sys.stderr)
        return 1
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    print("tests.browser: installing Debian's chromium for the browser test ...", flush=True)
    for command in ([*sudo, apt, "update", "-qq"],
                    [*sudo, apt, "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL)
        if done.returncode != 0:
            return done.returncode
    return 0 if chromium() else 1


if __name__ == "__main__":
    sys.exit(install() if "--install" in sys.argv else 0 if chromium() else 1)
