"""Debian's Chromium for the browser test.

`python -m tests.support.browser --install` installs the `chromium` package when it is missing
(README's test command runs it, so CI has the browser); Playwright drives it through
`executable_path`, never downloading a browser of its own.
"""

from __future__ import annotations

import shutil
import sys

from tests.support import debian

# As this machine's notes advise for a closed network: no background connections.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str | None:
    """The Chromium executable, if installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def install() -> int:
    """Install Debian's chromium package unless it is there already."""
    return debian.install("chromium", chromium, "the browser test")


if __name__ == "__main__":
    sys.exit(install() if "--install" in sys.argv else 0 if chromium() else 1)
