"""Commands started as a person starts them in a terminal, for the tests that interrupt them."""

import signal
import subprocess


def _as_in_a_terminal() -> None:
    """Ctrl-C interrupts the command even where the tests themselves run as a background job: a
    shell starts those with SIGINT ignored, which every child would inherit across exec."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_command(command: list[str]) -> subprocess.Popen:
    """``command`` in a process group of its own (a shell's job), with Ctrl-C not ignored."""
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_as_in_a_terminal)
