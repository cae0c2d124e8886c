"""The web server of `arbo serve`, on aiohttp (the only module that imports it): the viewers'
pages and events, the multiboard, and the recorder's requests, with the token, the origin, the
size of a request and the rate of each client's requests checked before anything is done."""

from __future__ import annotations

import asyncio
import hmac
import json
import signal
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Awaitable, Callable

from aiohttp import web

from arbo_notation.errors import ArboError
from arbo_notation.serve.live import Hub
from arbo_notation.serve.pages import board_page, recorder_page, viewer_page
from arbo_notation.serve.paths import NotServed, Served
from arbo_notation.serve.recorder import MAX_ENTRY, Recorder
from arbo_notation.serve.tables import Snapshot, board_json, event_text

#: The largest request body taken: an entry and its ids are some hundreds of bytes.
MAX_BODY = 4096
#: Viewers connected at once, past which a new one is asked to come back later (503).
MAX_STREAMS = 2000
#: A comment line sent to a quiet viewer this often, so a proxy or a phone keeps the stream open.
KEEP_ALIVE_SECONDS = 15.0
#: How long a viewer's browser waits before it reconnects (the event stream's ``retry``).
RETRY_MS = 1000


@dataclass(slots=True)
class Bucket:
    """A token bucket: ``burst`` requests at once, then ``rate`` a second."""

    rate: float
    burst: float
    tokens: float = 0.0
    at: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Rates:
    """Each client's (by address) buckets of one kind of request; the clients remembered are bounded."""

    def __init__(self, rate: float, burst: float, clients: int = 4096) -> None:
        self.rate, self.burst, self.clients = rate, burst, clients
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def allow(self, client: str) -> bool:
        bucket = self._buckets.pop(client, None) or Bucket(self.rate, self.burst)
        self._buckets[client] = bucket
        while len(self._buckets) > self.clients:
            self._buckets.popitem(last=False)
        return bucket.take()


@dataclass(slots=True)
class Limits:
    """The rates allowed to one client: entries written, the recorder's questions, streams opened."""

    writes: Rates = field(default_factory=lambda: Rates(2.0, 10))
    asks: Rates = field(default_factory=lambda: Rates(20.0, 60))
    streams: Rates = field(default_factory=lambda: Rates(100.0, 500))


def _refusal(status: int, message: str) -> web.Response:
    return web.json_response({"status": "refused", "message": message}, status=status)


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Every answer: never cached, never sniffed, never framed, never sending a referrer."""
    try:
        response = await handler(request)
    except web.HTTPException as error:
        response = error
    response.headers.setdefault("Cache-Control", "no-store")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"  # (a page's meta policy cannot say it)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


class Server:
    """The handlers, over a hub (the records followed) and a recorder (the phones' writes)."""

    def __init__(
        self,
        hub: Hub,
        recorder: Recorder | None,
        token: str,
        limits: Limits | None = None,
        public_origin: str | None = None,
    ) -> None:
        self.hub = hub
        self.recorder = recorder
        self.token = token.encode("ascii")
        self.limits = limits or Limits()
        self.public_origin = public_origin  # the origin a reverse proxy shows (--public-url)

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[_headers])
        app.router.add_get("/", self.board)
        app.router.add_get("/events", self.board_events)
        app.router.add_get("/game/{name}", self.game)
        app.router.add_get("/events/{name}", self.game_events)
        app.router.add_get("/record/", self.recorder_page)
        app.router.add_get("/api/games", self.games)
        app.router.add_get("/api/state/{name}", self.state)
        app.router.add_get("/api/complete/{name}", self.complete)
        app.router.add_post("/api/entry/{name}", self.entry)
        app.router.add_post("/api/new", self.new_game)
        app.on_shutdown.append(self._closing)
        return app

    async def _closing(self, _: web.Application) -> None:
        self.hub.close()  # the viewers' streams end now, not at the shutdown's timeout

    # -- viewers ----------------------------------------------------------------------------

    def _name(self, request: web.Request) -> str:
        name = request.match_info["name"]
        try:
            self.hub.served.resolve(name)
        except NotServed:
            raise web.HTTPNotFound(text="no such record here") from None
        return name

    async def board(self, request: web.Request) -> web.Response:
        title = f"arbo serve · {self.hub.served.only or self.hub.served.root.name}"
        return web.Response(text=board_page(self.hub.board(), title), content_type="text/html")

    async def game(self, request: web.Request) -> web.Response:
        name = self._name(request)
        shown = self.hub.shown(name) or Snapshot.of(0, {"title": name, "games": [], "failed": []}, {}, ())
        return web.Response(text=viewer_page(shown, name), content_type="text/html")

    async def game_events(self, request: web.Request) -> web.StreamResponse:
        name = self._name(request)
        return await self._stream(request, "game", lambda: self._game_event(name))

    def _game_event(self, name: str) -> tuple[str, str] | None:
        shown = self.hub.shown(name)
        return None if shown is None else (self.hub.ident(shown.version), shown.data_json)

    async def board_events(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, "board", self._board_event)

    def _board_event(self) -> tuple[str, str]:
        return self.hub.ident(self.hub.published), board_json(self.hub.board())

    async def _stream(
        self, request: web.Request, kind: str, current: Callable[[], tuple[str, str] | None]
    ) -> web.StreamResponse:
        """Server-sent events of ``kind``: the state now unless the browser's Last-Event-ID is it
        (a stream resumed), then each new one. Every event is a whole state, so none is missed."""
        if not self.limits.streams.allow(request.remote or ""):
            return _refusal(429, "too many connections from here; wait a moment")
        if self.hub.streams >= MAX_STREAMS:
            return _refusal(503, "too many viewers connected; try again later")
        # X-Accel-Buffering: a reverse proxy (nginx) passes each event on at once, not a buffer full
        headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        response = web.StreamResponse(headers=headers)
        await response.prepare(request)
        last = request.headers.get("Last-Event-ID", "")
        self.hub.streams += 1
        try:
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            while not self.hub.closing.is_set():
                wake = self.hub.waiter()
                event = current()
                if event is not None and event[0] != last:
                    last = event[0]
                    await response.write(event_text(kind, *event))
                done, _ = await asyncio.wait([wake], timeout=KEEP_ALIVE_SECONDS)
                if not done:
                    await response.write(b": still here\n\n")
        except (ConnectionResetError, ConnectionError):
            pass  # the viewer left
        finally:
            self.hub.streams -= 1
        return response

    # -- the recorder -----------------------------------------------------------------------

    async def recorder_page(self, request: web.Request) -> web.Response:
        if self.recorder is None:
            raise web.HTTPNotFound(text="this server does not record (arbo serve --read-only)")
        return web.Response(text=recorder_page(), content_type="text/html")

    def _allowed(self, request: web.Request, rates: Rates) -> None:
        """Refuse a request without the token (403), of another origin (403), or past its rate (429)."""
        if self.recorder is None:
            raise web.HTTPNotFound(text="this server does not record (arbo serve --read-only)")
        given = request.headers.get("X-Arbo-Token", "").encode("utf-8", "replace")
        if not hmac.compare_digest(given, self.token):
            raise web.HTTPForbidden(text="this needs the recorder's link with its token")
        if request.method != "GET":
            origin = request.headers.get("Origin")
            fetched = request.headers.get("Sec-Fetch-Site")
            own = (f"{request.scheme}://{request.host}", self.public_origin)
            if origin is None or origin not in own or fetched not in (None, "same-origin"):
                raise web.HTTPForbidden(text="a write comes only from this server's own page")
        if not rates.allow(request.remote or ""):
            raise web.HTTPTooManyRequests(text="too many requests; wait a moment")

    def _recorder(self) -> Recorder:
        assert self.recorder is not None  # (_allowed answered 404 without one)
        return self.recorder

    async def games(self, request: web.Request) -> web.Response:
        self._allowed(request, self.limits.asks)
        return web.json_response({"games": self.hub.served.names(), "new": self.hub.served.only is None})

    async def state(self, request: web.Request) -> web.Response:
        self._allowed(request, self.limits.asks)
        name = self._name(request)
        try:
            state = await asyncio.to_thread(self._recorder().state, name)
        except ArboError as error:
            return web.json_response({"status": "closed", "message": str(error), "state": None})
        return web.json_response({"status": "ok", "state": state})

    async def complete(self, request: web.Request) -> web.Response:
        self._allowed(request, self.limits.asks)
        name = self._name(request)
        typed = request.query.get("text", "")[:MAX_ENTRY]
        try:
            return web.json_response(await asyncio.to_thread(self._recorder().completions, name, typed))
        except ArboError as error:
            return web.json_response({"start": len(typed), "choices": [], "hint": "", "problem": str(error)})

    async def entry(self, request: web.Request) -> web.Response:
        self._allowed(request, self.limits.writes)
        name = self._name(request)
        texts = await _texts(request, ("id", "base", "entry"))
        if texts is None:
            return _refusal(400, "an entry is sent as {id, base, entry}, each a short text")
        entry_id, base, entry = texts
        answer = await asyncio.to_thread(self._recorder().enter, name, entry_id, base, entry)
        return web.json_response(answer.to_json())

    async def new_game(self, request: web.Request) -> web.Response:
        """A new record in the folder, as `arbo record --players` starts one."""
        self._allowed(request, self.limits.writes)
        keys = ("name", "players", "species", "seat", "event")
        texts = await _texts(request, keys)
        if texts is None:
            return _refusal(400, "a new game is sent as {name, players, species, seat, event}, each a short text")
        answer = await asyncio.to_thread(self._recorder().start, *texts)
        return web.json_response(answer.to_json())


async def _texts(request: web.Request, keys: tuple[str, ...]) -> list[str] | None:
    """The request's JSON object's ``keys``, each a short text; None when it is not that."""
    try:
        body = json.loads(await request.read())
    except (ValueError, UnicodeDecodeError):
        return None
    fields = [body.get(key) for key in keys] if isinstance(body, dict) else []
    texts = [value for value in fields if isinstance(value, str) and len(value) <= MAX_ENTRY]
    return texts if len(texts) == len(keys) else None


async def run(
    served: Served,
    *,
    host: str,
    port: int,
    delay: float,
    token: str,
    record: bool,
    ready: Callable[[str, int], None],
    public_origin: str | None = None,
) -> None:
    """Serve until cancelled (Ctrl-C) or sent SIGTERM, then close every connection and return."""
    hub = Hub(served, delay)
    await hub.look()
    server = Server(hub, Recorder(served) if record else None, token, public_origin=public_origin)
    # handler_cancellation: a viewer who leaves ends their stream's handler at once, not at the
    # next event or keep-alive (a thousand reconnections would otherwise hold a thousand handlers)
    runner = web.AppRunner(server.app(), access_log=None, shutdown_timeout=1.0, handler_cancellation=True)
    await runner.setup()
    try:
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound = runner.addresses[0]
        follower = asyncio.create_task(hub.follow())
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        ready(str(bound[0]), int(bound[1]))
        try:
            await stop.wait()
        finally:
            loop.remove_signal_handler(signal.SIGTERM)
            hub.close()
            await follower
    finally:
        await runner.cleanup()
