"""No card the record keeps hidden reaches a viewer before the game ends: a game recorded turn by
turn with `arbo record --plain` while the server streams it, and every event it sent (each game's
stream, the multiboard's, the pages asked for meanwhile) searched for every card nobody at the
table has seen yet at that turn: the dealt hands, the cards drawn from the deck, the deck."""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from arbo_notation.game.facts import game_for
from arbo_notation.notation.header.keys import format_header
from arbo_notation.notation.reading.reader import parse_all
from arbo_notation.notation.writer import format_turn
from tests.serve.support import ROOT, Running, events, record, start

OMNISCIENT = ROOT / "samples" / "two-player-omniscient.arb"

pytestmark = pytest.mark.slow


def hidden_after(turns: int) -> set[str]:
    """The cards of the game no spectator has seen after ``turns`` turns of the full record: every
    card of the species but those in an arboretum, on a pile, or taken from a pile into a hand."""
    full = parse_all(OMNISCIENT.read_text(), "full").games[0]
    game = game_for(full.header)
    for turn in full.turns[:turns]:
        game.push_known_turn(turn.known())
    public = game.public_view()
    seen: set[str] = set()
    for player in full.header.players:
        seen |= {str(card) for card in game.arboretum(player).values()}
        seen |= {str(card) for card in public.discard_pile(player)}
        seen |= {str(card) for card in public.hand(player).known}
    every = {f"{code}{value}" for code in full.header.species for value in range(1, 9)}
    in_hands = {str(card) for player in full.header.players for card in game.hand(player).known}
    assert in_hands - seen, "the game holds hidden cards at every turn before its end"
    return every - seen


def named(cards: set[str], text: str) -> set[str]:
    return {card for card in cards if re.search(rf"(?<![A-Za-z]){card}(?![0-9])", text)}


class Listener(threading.Thread):
    """Every event of one stream, as it comes."""

    def __init__(self, server: Running, path: str) -> None:
        super().__init__(daemon=True)
        where = urlsplit(server.base)
        self.connection = http.client.HTTPConnection(where.hostname, where.port, timeout=120)
        self.connection.request("GET", path)
        self.response = self.connection.getresponse()
        self.got: list[tuple[str, str, str]] = []

    def run(self) -> None:
        try:
            for event in events(self.response):
                self.got.append(event)
        except (OSError, ValueError, http.client.HTTPException):
            pass


def test_no_hidden_card_reaches_a_viewer_before_the_end(tmp_path: Path) -> None:
    full = parse_all(OMNISCIENT.read_text(), "full").games[0]
    path = tmp_path / "live.arb"
    path.write_text(format_header(full.header))
    server = start(tmp_path)
    pages: list[tuple[int, str]] = []
    try:
        game_stream = Listener(server, "/events/live.arb")
        board_stream = Listener(server, "/events")
        game_stream.start()
        board_stream.start()
        for number, turn in enumerate(full.turns, 1):
            done = record(path, format_turn(turn, number).split(" ", 1)[1])
            assert done.returncode == 0, done.stderr
            if number % 5 == 0 and number < len(full.turns):
                time.sleep(0.3)  # the server has seen the file (it looks every 0.1 s)
                pages.append((number, server.get("/game/live.arb")[1].decode()))
                pages.append((number, server.get("/")[1].decode()))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not any(
            '"result":"Ana' in e[2] or '"finished"' in e[2] for e in game_stream.got + board_stream.got
        ):
            time.sleep(0.1)
    finally:
        assert server.stop() == 0
    game_stream.join(10)
    board_stream.join(10)

    checked = 0
    for _, kind, data in game_stream.got:
        assert kind == "game"
        game = json.loads(data)["games"][0]
        turns = game["lines"][0]["legal"]
        if game["result"] != "unfinished":
            assert turns == len(full.turns)
            assert named(hidden_after(len(full.turns) - 1), data), "after the end the hands are shown"
            continue
        assert named(hidden_after(turns), data) == set(), f"turn {turns}"
        checked += 1
    for _, kind, data in board_stream.got:
        assert kind == "board"
        for table in json.loads(data)["tables"]:
            if table["status"] == "playing":
                assert named(hidden_after(table["turns"]), json.dumps(table)) == set()
                checked += 1
    for turns, page in pages:
        assert named(hidden_after(turns), page) == set(), f"page after turn {turns}"
    # the streams saw the game turn by turn (the server looks at the file every 0.1 s)
    assert checked >= len(full.turns)
    assert json.loads(game_stream.got[-1][2])["games"][0]["result"] != "unfinished"
