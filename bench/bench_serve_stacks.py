"""The two stacks `arbo serve` could stand on, side by side on loopback: an event of 30 kB written
to 200 event streams every half second, the same waiting on one shared future in both, on aiohttp
alone and on starlette served by uvicorn. Each server runs in the Python given (a virtual
environment holding its stack); the figure is each event's time from the server's clock at its
making to each viewer's receipt, and the server's CPU time.

    python3 -m venv /tmp/aio && /tmp/aio/bin/pip install 'aiohttp==3.14.*'
    python3 -m venv /tmp/asgi && /tmp/asgi/bin/pip install 'starlette==1.10.*' 'uvicorn==0.54.*'
    python bench/bench_serve_stacks.py --aiohttp /tmp/aio/bin/python --asgi /tmp/asgi/bin/python
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import time
from pathlib import Path

COMMON = """
import asyncio, sys, time
EVENTS, PORT = int(sys.argv[1]), int(sys.argv[2])
PAD = "x" * 30000
state = {"wake": None, "event": b""}

def waiter():
    if state["wake"] is None:
        state["wake"] = asyncio.get_running_loop().create_future()
    return state["wake"]

async def publish():
    await asyncio.sleep(4)  # the viewers connect
    for number in range(EVENTS):
        state["event"] = f"id: {number}\\ndata: {time.time()} {PAD}\\n\\n".encode()
        wake, state["wake"] = state["wake"], None
        if wake is not None:
            wake.set_result(None)
        await asyncio.sleep(0.5)
"""

AIOHTTP = (
    COMMON
    + """
from aiohttp import web

async def events(request):
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    last = b""
    while True:
        wake = waiter()
        if state["event"] and state["event"] is not last:
            last = state["event"]
            await response.write(last)
        await asyncio.wait([wake])

async def start(app):
    app["publisher"] = asyncio.create_task(publish())

app = web.Application()
app.router.add_get("/events", events)
app.on_startup.append(start)
web.run_app(app, host="127.0.0.1", port=PORT, print=None, access_log=None, handler_cancellation=True)
"""
)

ASGI = (
    COMMON
    + """
import contextlib
import uvicorn
from starlette.applications import Starlette
from starlette.responses import StreamingResponse
from starlette.routing import Route

async def stream():
    last = b""
    while True:
        wake = waiter()
        if state["event"] and state["event"] is not last:
            last = state["event"]
            yield last
        await asyncio.wait([wake])

async def events(request):
    return StreamingResponse(stream(), media_type="text/event-stream")

@contextlib.asynccontextmanager
async def lifespan(app):
    task = asyncio.create_task(publish())
    yield
    task.cancel()

app = Starlette(routes=[Route("/events", events)], lifespan=lifespan)
uvicorn.run(app, host="127.0.0.1", port=PORT, log_level="warning", access_log=False)
"""
)


async def viewer(port: int, delays: list[float], events: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 22)
    writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    await writer.drain()
    buffer = b""
    seen = 0
    while seen < events and (chunk := await reader.read(1 << 20)):
        now = time.time()
        buffer += chunk
        while (at := buffer.find(b"data: ")) >= 0 and (end := buffer.find(b" ", at + 6)) >= 0:
            delays.append(now - float(buffer[at + 6 : end]))
            seen += 1
            buffer = buffer[end:]
    writer.close()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(python: str, program: str, viewers: int, events: int) -> tuple[list[float], float]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([python, "-c", program, str(events), str(port)])
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        delays: list[float] = []
        await asyncio.gather(*(viewer(port, delays, events) for _ in range(viewers)))
        return sorted(delays), cpu_seconds(server.pid)
    finally:
        server.terminate()
        server.wait(10)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--aiohttp", required=True, metavar="PYTHON")
    parser.add_argument("--asgi", required=True, metavar="PYTHON")
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--events", type=int, default=20)
    args = parser.parse_args()
    for name, python, program in (("aiohttp", args.aiohttp, AIOHTTP), ("starlette+uvicorn", args.asgi, ASGI)):
        delays, cpu = await measure(python, program, args.viewers, args.events)
        p95 = delays[int(0.95 * (len(delays) - 1))]
        print(
            f"{name}: {len(delays)} receipts, median {delays[len(delays) // 2] * 1000:.1f} ms, "
            f"p95 {p95 * 1000:.1f} ms, max {delays[-1] * 1000:.1f} ms; server CPU {cpu:.2f} s"
        )


if __name__ == "__main__":
    asyncio.run(main())
