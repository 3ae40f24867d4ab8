"""The HTTP protocol `fivedice serve` runs (web/server.py) on fake transports: what a
connection was sent, and whether (and how) it was closed, without a socket."""

from __future__ import annotations

import asyncio

from fivedice.web.limits import EdgeLimits
from fivedice.web.server import GuardedHttpProtocol


class FakeTransport(asyncio.Transport):
    """What a protocol writes, and whether (and how) it closed."""

    def __init__(self, address: str) -> None:
        super().__init__()
        self.address = address
        self.written = b""
        self.closed = self.reset = self.eof_written = False
        self.protocol: asyncio.BaseProtocol | None = None

    def get_extra_info(self, name, default=None):
        return {"peername": (self.address, 40000), "sockname": ("127.0.0.1", 8000)}.get(
            name, default
        )

    def write(self, data) -> None:
        self.written += bytes(data)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            asyncio.get_running_loop().call_soon(self.protocol.connection_lost, None)

    def abort(self) -> None:
        self.reset = True
        self.close()

    def is_closing(self) -> bool:
        return self.closed

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.eof_written = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def connect(config, state, address: str, limits: EdgeLimits) -> FakeTransport:
    protocol = GuardedHttpProtocol(config=config, server_state=state, app_state={})
    protocol.limits = limits
    transport = FakeTransport(address)
    transport.protocol = protocol
    protocol.connection_made(transport)
    return transport
