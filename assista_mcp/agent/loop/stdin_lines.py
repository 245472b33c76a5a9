"""Lines typed on stdin, shared by the chat prompt and approval questions.

One daemon thread reads stdin; async callers take lines in order. A wait that is cancelled (Ctrl-C
during an approval question) loses nothing: the next line goes to the next caller, never to a
thread still blocked on a question nobody is asking any more.
"""

from __future__ import annotations

import math
import sys
import threading
from typing import TextIO

import anyio
import anyio.from_thread
import anyio.lowlevel


class StdinLines:
    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream
        self._send, self._receive = anyio.create_memory_object_stream[str](max_buffer_size=math.inf)
        self._started = False

    async def readline(self) -> str | None:
        """The next line (with its newline), or None at end of input."""
        if not self._started:
            self._started = True
            token = anyio.lowlevel.current_token()
            threading.Thread(target=self._pump, args=(token,), daemon=True, name="stdin-lines").start()
        try:
            return await self._receive.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            return None

    def _pump(self, token: anyio.lowlevel.EventLoopToken) -> None:
        stream = self.stream or sys.stdin
        try:
            for line in iter(stream.readline, ""):
                anyio.from_thread.run_sync(self._send.send_nowait, line, token=token)
            anyio.from_thread.run_sync(self._send.close, token=token)
        except (anyio.RunFinishedError, anyio.BrokenResourceError, anyio.ClosedResourceError, ValueError):
            return  # the agent has finished; nobody is reading any more
