"""The console on a terminal (a pseudo-terminal here): lines are edited with readline,
and Ctrl-C quits at once, with the database closed cleanly."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _controlling_terminal() -> None:
    """In the child: make the pseudo-terminal (standard input) its controlling terminal,
    so that Ctrl-C typed into it is an interrupt, as in a real terminal."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """`ladderbot console` on a pseudo-terminal: type into it, read what it shows."""

    def __init__(self, db: Path) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "console", "--db", str(db), "--admin", "mod"],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, close_fds=True,
            env={**os.environ, "TERM": "dumb"}, preexec_fn=_controlling_terminal)
        os.close(slave)
        self.seen = ""

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def wait_for(self, text: str, timeout: float = 60) -> str:
        """Read until `text` shows (or the timeout passes: then fail)."""
        while text not in self.seen:
            ready, _, _ = select.select([self.master], [], [], timeout)
            assert ready, f"{text!r} never showed; the terminal shows:\n{self.seen}"
            try:
                self.seen += os.read(self.master, 4096).decode(errors="replace")
            except OSError:  # the console exited
                break
        assert text in self.seen, self.seen
        return self.seen

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=60)
        os.close(self.master)


def test_a_line_is_edited_and_ctrl_c_quits(tmp_path: Path) -> None:
    term = Terminal(tmp_path / "l.db")
    try:
        term.wait_for("> ")
        term.type("@mod: /ladder create main preset=duel\r")
        term.wait_for("bot: Ladder main created")
        # readline: Ctrl-A goes to the start of the line, so the name lands before /join
        term.type("/join\x01@alice: \r")
        term.wait_for("bot: alice joined main at 1000.")
        term.type("\x03")  # Ctrl-C at the prompt: the console stops, not on the next line
        assert term.process.wait(timeout=60) == 0
    finally:
        term.close()
    done = subprocess.run([sys.executable, "-m", "bot.cli", "export", "--db",
                           str(tmp_path / "l.db"), "--ladder", "main"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert '"name": "alice"' in done.stdout, done.stderr
