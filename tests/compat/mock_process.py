"""Our mock server as the compat scripts start it (a free loopback port, waited for until it
accepts, stopped however the block ends), and the environment both tools run in."""
from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_mock(mock: Path, args: list[str]):
    """Yields the port of `mock --port P *args`, once it accepts connections (5 s at most)."""
    port = free_port()
    server = subprocess.Popen([str(mock), "--port", str(port), *args],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port
    finally:
        server.terminate()
        server.wait()


def tool_env() -> dict:
    """The environment without the HF offline switches (the reference resolves the tokenizer path itself)."""
    return {k: v for k, v in os.environ.items() if k not in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
