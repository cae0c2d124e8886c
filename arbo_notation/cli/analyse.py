"""`arbo analyse`: judge every turn whose mover's hand is known, and write the record annotated."""

from __future__ import annotations

import json
import sys
from typing import Any, List, Optional

import typer

from arbo_notation.analysis.accuracy import Accuracy, note_loss, summarise
from arbo_notation.analysis.game import (
    TryMismatch,
    add_variation,
    engine_note,
    tasks,
    tried_note,
    tried_turn,
    what_if,
)
from arbo_notation.analysis.pieces import judge_piece, merged_evaluations, pieces
from arbo_notation.analysis.turns import DEFAULT_BUDGET, TurnEvaluation
from arbo_notation.engine.cards import Card
from arbo_notation.errors import ArboError, NotationErrors
from arbo_notation.game.knowledge import Hypothesis
from arbo_notation.game.tree import SetupError, load_tree
from arbo_notation.notation.engine_notes import annotate, with_note
from arbo_notation.notation.model import GameRecord
from arbo_notation.notation.reading.reader import parse
from arbo_notation.notation.writer import first_turn, format_games_over
from arbo_notation.runtime.atomic import rewrite_unchanged, write_atomic
from arbo_notation.cli.fmt import fingerprint_of, not_rewritten
from arbo_notation.cli.common import (
    EXIT_INVALID,
    EXIT_USAGE,
    echo_error,
    fail,
    is_an_input,
    judged_in_order,
    read_input,
    say_wrote,
)
from arbo_notation.cli.bounds import (
    LEAST_BUDGET,
    LEAST_MOVE_TIME,
    MOST_BUDGET,
    MOST_GAMES,
    MOST_JOBS,
    MOST_MOVE_TIME,
    MOST_TURNS,
)
from arbo_notation.cli.usage import a_path, number_between, whole_number

#: From this many turns to judge, a terminal gets a progress bar on stderr.
PROGRESS_FROM = 4


def _records(path: str) -> tuple[str, list[GameRecord]]:
    """The text of the record file and its games (its header comments are in the text alone)."""
    try:
        text, name = read_input(path)
        return text, parse(text, name)
    except NotationErrors as error:
        for single in error.errors:
            echo_error(single)
        raise typer.Exit(EXIT_INVALID) from None
    except ArboError as error:  # missing or unreadable: one message
        fail(str(error))


def summary(evaluations: list[TurnEvaluation], players: tuple[str, ...]) -> list[Accuracy]:
    """Per player: their judged turns summed up from the losses the notes state (to tenths), so
    the figures are those the replayer, the page and `arbo stats` read back from the record."""
    return summarise(((e.player, note_loss(engine_note(e)), e.glyph) for e in evaluations), players)


def summary_json(row: Accuracy) -> dict[str, Any]:
    """A summary row of --json: the keys of before (mean_loss, the glyph counts), then
    points_lost and accuracy."""
    figures = row.to_json()
    return {
        "player": row.player,
        "turns": row.turns,
        "mean_loss": figures["mean_points_lost"],
        **row.glyphs(),
        "points_lost": figures["points_lost"],
        "accuracy": figures["accuracy"],
    }


def analyse(
    file: str = typer.Argument(..., metavar="FILE", help="A record file ('-' reads standard input)."),
    out: Optional[str] = typer.Option(
        None, "--out", "-o", metavar="OUT", parser=a_path("--out"), help="Write the annotated record to OUT."
    ),
    in_place: bool = typer.Option(
        False, "--in-place", "-i", help="Rewrite FILE annotated (a new copy renamed over it)."
    ),
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print each judged turn and the summary as JSON on stdout (the record goes to -o or --in-place only).",
    ),
    budget: Optional[int] = typer.Option(
        None,
        "--budget",
        "-b",
        metavar="N",
        parser=whole_number("--budget", LEAST_BUDGET, MOST_BUDGET),
        help="Sampled worlds per decision (default 48; see docs/ANALYSIS.md).",
    ),
    seed: str = typer.Option("0", "--seed", "-s", metavar="SEED", help="Seed: the same seed gives the same output."),
    move_time: Optional[float] = typer.Option(
        None,
        "--move-time",
        metavar="SECONDS",
        parser=number_between("--move-time", LEAST_MOVE_TIME, MOST_MOVE_TIME),
        help="Time limit per turn judged: the search stops in time and judges with the worlds played (fewer than --budget; the output then depends on the machine's speed).",
    ),
    jobs: int = typer.Option(
        0,
        "--jobs",
        "-j",
        metavar="N",
        parser=whole_number("--jobs", 0, MOST_JOBS),
        help="Worker processes: 0 (the default) uses every core this process may run on; -j 1 works in this process. Same output.",
    ),
    players: Optional[List[str]] = typer.Option(
        None, "--as", metavar="PLAYER", help="Judge this player's turns only (repeat for more)."
    ),
    turn: Optional[int] = typer.Option(
        None, "--turn", "-t", metavar="N", parser=whole_number("--turn", 1, MOST_TURNS), help="Judge turn N only."
    ),
    game_number: Optional[int] = typer.Option(
        None,
        "--game",
        "-g",
        metavar="N",
        parser=whole_number("--game", 1, MOST_GAMES),
        help="Judge game N of the file only (1-based).",
    ),
    try_text: Optional[str] = typer.Option(
        None,
        "--try",
        metavar="TURN",
        help='What if: judge TURN (such as "d d Ma3@0,1 /Oa5") beside turn N (--turn), in the same worlds; prints both. With -o or --in-place, the record is written with TURN as a variation of turn N.',
    ),
    supposed: Optional[List[str]] = typer.Option(
        None,
        "--suppose",
        metavar="PLAYER:CARD",
        help="With --try: judge both supposing CARD, unseen by the mover, in PLAYER's hand (repeat for more).",
    ),
) -> None:
    """Judge each turn of a recorded game from what its mover knew, and mark the mistakes.

    Every turn of the main line whose mover's hand is known at the time is judged (every turn
    of an omniscient record; the recorder's turns of a seat record; a spectator's record has
    none): its expected final margin (the mover's score minus the best other score) against the
    best turn found. Turns that lose 1.5, 3 and 6 points or more are marked ?!, ? and ??, with a
    comment giving the better turn. The record is written annotated to stdout, to OUT with -o,
    or back to FILE with --in-place; the engine's comments start "arbo:" and a second run
    replaces only those. A summary per player goes to stderr. A game with a rule error is
    judged up to it, the error reported, and the exit status is 1.

    Examples:

        arbo analyse game.arb -o game-analysed.arb

        arbo analyse game.arb --in-place --budget 96

        arbo analyse club.arb --game 2 --as Ana --json | jq '.turns[] | select(.glyph)'

        arbo analyse game.arb --turn 5 --try "d d Ma3@0,1 /Oa5"

        arbo analyse game.arb --turn 5 --try "d d Ma3@0,1 /Oa5" --suppose Ben:Oa7

        arbo analyse game.arb --turn 5 --try "d d Ma3@0,1 /Oa5" --in-place
    """
    if supposed and try_text is None:
        fail("--suppose needs --try: a hypothetical is judged in a what-if", EXIT_USAGE)
    if try_text is not None:
        if turn is None:
            fail("--try needs --turn N: the turn it is tried in place of", EXIT_USAGE)
        if players:
            fail("--try judges the mover of turn N: it takes no --as", EXIT_USAGE)
    if in_place and out is not None:
        fail("--in-place and --out exclude each other", EXIT_USAGE)
    if in_place and file == "-":
        fail("--in-place cannot rewrite standard input", EXIT_USAGE)
    if out is not None and is_an_input(out, [file]) is not None:
        in_place, out = True, None  # -o FILE rewrites FILE: as --in-place does, never over a turn recorded meanwhile
    # the file's fingerprint before the reading: a turn recorded after it is not written over
    read = fingerprint_of(file) if in_place else None
    if try_text is not None and turn is not None:
        # the same --suppose twice is one fact: supposed once, said once
        hypotheses = list(dict.fromkeys(_hypothesis(text) for text in supposed or []))
        was_read, games = _what_if(
            file, game_number or 1, turn, try_text, budget or DEFAULT_BUDGET, seed, as_json, hypotheses
        )
        destination = file if in_place else out
        if destination is not None:
            _write(destination, format_games_over(games, *was_read), read)
            say_wrote(destination, f"the try as a variation of turn {turn}")
        return
    source, records = _records(file)
    if game_number is not None and game_number > len(records):
        fail(
            f"{file} holds {len(records)} game{'s' if len(records) != 1 else ''}; there is no game {game_number}",
            EXIT_USAGE,
        )
    chosen = range(len(records)) if game_number is None else [game_number - 1]
    budget = budget or DEFAULT_BUDGET
    annotated = list(records)
    evaluations = []
    seats: list[str] = []
    failed = False
    for index in chosen:
        record = records[index]
        for player in players or ():
            if player not in record.header.players:
                fail(f"--as {player}: game {index + 1} is played by {', '.join(record.header.players)}", EXIT_USAGE)
        last = first_turn(record) - 1 + len(record.turns)  # a study's turns go on from its position's
        if turn is not None and turn > last:
            fail(f"game {index + 1} has {len(record.turns)} turns; there is no turn {turn}", EXIT_USAGE)
        try:
            tree = load_tree(record)
        except SetupError as error:
            for diagnostic in error.diagnostics:
                typer.echo(diagnostic.show(), err=True)
            raise typer.Exit(EXIT_INVALID) from None
        for diagnostic in tree.replay.errors:  # the turns after a rule error are not judged
            typer.echo(diagnostic.show(), err=True)
            failed = True
        try:
            found = tasks(
                tree,
                budget=budget,
                seed=seed,
                players=players,
                turns=None if turn is None else [turn],
                move_time=move_time,
            )
        except ArboError as error:
            fail(str(error))
        if not found:
            typer.echo(
                f"arbo: game {index + 1}: no turn can be judged: no mover's hand is known at its turn"
                " (a spectator's record, or the turns asked for are not the recorder's)",
                err=True,
            )
            continue
        from arbo_notation.runtime.workers import jobs_for  # deferred, as judged_in_order defers it

        judged = [task for _, task in found]
        try:
            # a heavy turn is shared between the workers (analysis/pieces.py); the same evaluations
            work = pieces(judged, jobs_for(jobs, 2 * len(judged)))
            shares = judged_in_order(judge_piece, work, jobs, run="analysis", label="analysing", least=PROGRESS_FROM)
        except ArboError as error:  # no world agrees with what a mover knows, or a worker lost
            fail(str(error))
        results = merged_evaluations(judged, work, shares)
        evaluations.extend(results)
        seats.extend(p for p in record.header.players if p not in seats)
        notes = {node.index - 1: engine_note(e) for (node, _), e in zip(found, results, strict=False)}
        annotated[index] = annotate(record, notes, clear=turn is None and not players)
    text = format_games_over(annotated, source, records)
    rows = summary(evaluations, tuple(seats))
    if as_json:
        typer.echo(
            json.dumps(
                {"turns": [e.to_json() for e in evaluations], "summary": [summary_json(row) for row in rows]}, indent=2
            )
        )
    destination = file if in_place else out
    if destination is not None:
        _write(destination, text, read)
        say_wrote(destination, f"{len(evaluations)} turn{'s' if len(evaluations) != 1 else ''} judged")
    elif not as_json:
        sys.stdout.write(text)
        sys.stdout.flush()
    for row in rows:
        typer.echo(
            f"{row.player}: {row.turns} turn{'s' if row.turns != 1 else ''} analysed, mean loss "
            f"{row.mean_points_lost:.2f} points a turn, ?! {row.inaccuracies}, ? {row.mistakes}, "
            f"?? {row.blunders}, accuracy {row.accuracy:.1f}%",
            err=True,
        )
    if failed:
        raise typer.Exit(EXIT_INVALID)


def _write(destination: str, text: str, read: bytes | None) -> None:
    """The record written to ``destination``: a new copy renamed over it; with ``read`` (the
    fingerprint of the file as it was read, for --in-place) refused when it changed since."""
    try:
        if read is not None:
            rewrite_unchanged(destination, text, read)
        else:
            write_atomic(destination, text)
    except OSError as error:
        fail(not_rewritten(destination, error))


def _hypothesis(text: str) -> Hypothesis:
    """``--suppose PLAYER:CARD`` read; a usage error for anything else."""
    player, colon, card = text.partition(":")
    try:
        if not colon or not player.strip():
            raise ArboError("expected PLAYER:CARD")
        return Hypothesis(player.strip(), Card.parse(card.strip()))
    except ArboError as error:
        fail(f"--suppose {text!r}: {error} (such as Ben:Ma3)", EXIT_USAGE)


def _refuse_unknown_species(hypotheses: list[Hypothesis], species: tuple[str, ...]) -> None:
    """A usage error for a --suppose whose card is of no species in play; a code in the wrong case
    (``ja7``: case matters, as in the record) is told with the card meant."""
    for hypothesis in hypotheses:
        code = hypothesis.card.species
        if code in species:
            continue
        given = f"--suppose '{hypothesis.player}:{hypothesis.card}'"
        meant = [s for s in species if s.lower() == code.lower()]
        if meant:
            fail(
                f"{given}: no species is written {code} (case matters): write {hypothesis.player}:{meant[0]}{hypothesis.card.value}",
                EXIT_USAGE,
            )
        fail(f"{given}: {code} is not a species in play ({', '.join(species)})", EXIT_USAGE)


def _what_if(
    file: str,
    game_number: int,
    number: int,
    text: str,
    budget: int,
    seed: str,
    as_json: bool,
    hypotheses: list[Hypothesis],
) -> tuple[tuple[str, list[GameRecord]], list[GameRecord]]:
    """`--try`: the tried turn judged beside turn ``number``, printed; exit 2 for a try of another
    turn (TryMismatch), 1 for a try that is illegal there or a turn that cannot be judged. Answers the file's games with the try added as
    a variation of the turn (its engine note with it, unless judged under hypotheticals, whose
    value holds only under them), as the replayer's W writes it; and the text and games read,
    for format_games_over."""
    source, records = _records(file)
    if game_number > len(records):
        fail(
            f"{file} holds {len(records)} game{'s' if len(records) != 1 else ''}; there is no game {game_number}",
            EXIT_USAGE,
        )
    try:
        tree = load_tree(records[game_number - 1])
        node = tree.node(number)
    except SetupError as error:
        fail(str(error))
    except IndexError as error:
        fail(f"game {game_number}: {error}", EXIT_USAGE)
    _refuse_unknown_species(hypotheses, node.position.config.species)
    try:
        judgement = what_if(node, text, budget=budget, seed=seed, hypotheses=hypotheses)
        tried = tried_turn(node, text)
    except TryMismatch as error:  # a try of another turn: the asker's slip, as --as Nobody is
        fail(f"--try {text!r}: {error}", EXIT_USAGE)
    except ArboError as error:
        fail(f"--try {text!r}: {error}")
    if as_json:
        typer.echo(json.dumps({**judgement.to_json(), "supposed": [str(h) for h in hypotheses]}, indent=2))
    else:
        if hypotheses:
            typer.echo(
                f"supposing {', '.join(str(h) for h in hypotheses)} (a hypothetical: never written into the record)"
            )
        for line in judgement.lines():
            typer.echo(line)
    kept = tried if hypotheses else with_note(tried, tried_note(judgement))
    games = list(records)
    games[game_number - 1] = add_variation(records[game_number - 1], (), number - 1, kept)[0]
    return (source, records), games


def register(app: typer.Typer) -> None:
    app.command("analyse")(analyse)
