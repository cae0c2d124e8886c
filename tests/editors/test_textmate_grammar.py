"""The VS Code extension's TextMate grammar, run by vscode-textmate and vscode-oniguruma as in VS Code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.editors.support import ROOT, SNAPSHOTS, tokenize

SAMPLES = sorted((ROOT / "samples").rglob("*.arb"))


def scopes_of(path: Path) -> dict[tuple[int, str], str]:
    """Each token of the file, (line, text), with its innermost scope."""
    done = tokenize("--json", str(path))
    assert done.returncode == 0, done.stderr
    [tokens] = json.loads(done.stdout)
    return {(t["line"], t["text"]): t["scopes"][-1] for t in tokens["tokens"] if t["text"].strip() and t["scopes"]}


def test_every_sample_tokenizes_as_its_kept_snapshot():
    done = tokenize()
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"{len(SAMPLES)} samples tokenize as their snapshots\n"


def test_a_grammar_that_changes_the_tokens_fails(tmp_path: Path):
    kept = tmp_path / "snapshots"
    shutil.copytree(SNAPSHOTS, kept)
    study = kept / "study.arb.tokens"
    lines = study.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if "variable.other.player.arbo" in line and i > 10)
    lines[at] = lines[at].replace("variable.other.player.arbo", "entity.name.type.card.arbo")
    study.write_text("".join(lines), encoding="utf-8")
    (kept / "unfinished.arb.tokens").unlink()
    done = tokenize("--snapshots", str(kept))
    assert done.returncode == 1
    assert f"study.arb.tokens:{at + 1}: kept " in done.stderr
    assert "unfinished.arb.tokens: no snapshot" in done.stderr
    assert f"2 of {len(SAMPLES)} samples tokenize otherwise than their snapshot" in done.stderr


def test_update_writes_the_kept_snapshots_again(tmp_path: Path):
    done = tokenize("--update", "--snapshots", str(tmp_path))
    assert done.returncode == 0, done.stderr
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.tokens"))
    assert written == sorted(p.relative_to(SNAPSHOTS) for p in SNAPSHOTS.rglob("*.tokens"))
    assert all((tmp_path / p).read_bytes() == (SNAPSHOTS / p).read_bytes() for p in written)


def test_each_piece_of_the_notation_has_its_scope(tmp_path: Path):
    record = tmp_path / "pieces.arb"
    record.write_text(
        "---\n"
        "players: [Ana, Ben]  # seat order\n"
        "species: [Ca, Dw, Ja, Ma, Oa, Wi]\n"
        "---\n"
        "1. Ana d d Ma3@0,0 /Oa5!\n"
        "2. Ben d:Ja2 Ana:Oa5 Oa5@-1,0 /Wi7 !! {takes the oak} ; at once\n"
        "  (2. Ben - d Ja2@0,0 /Wi7 ?? $14)\n"
        "3. Ana Ben d Wi7@0,1 /Dw2 !? ?! ?\n"
        "reveal Ana Ca1\n"
        "result *\n",
        encoding="utf-8",
    )
    scopes = scopes_of(record)
    assert scopes[(1, "---")] == "punctuation.definition.header.begin.arbo"
    assert scopes[(2, "players")] == "entity.name.tag.yaml"
    assert scopes[(2, "Ben")] == "variable.other.player.arbo"
    assert scopes[(2, " seat order")] == "comment.line.number-sign.yaml"
    assert scopes[(3, "Wi")] == "entity.name.type.species.arbo"
    assert scopes[(5, "1.")] == "constant.numeric.turn-number.arbo"
    assert scopes[(5, "Ana")] == "variable.other.player.arbo"
    assert scopes[(5, "d")] == "keyword.other.draw.deck.arbo"
    assert scopes[(5, "Ma3")] == "entity.name.type.card.arbo"
    assert scopes[(5, "@")] == "keyword.operator.planting.arbo"
    assert scopes[(5, "0")] == "constant.numeric.cell.arbo"
    assert scopes[(5, "/")] == "keyword.operator.discard.arbo"
    assert scopes[(5, "!")] == "keyword.control.glyph.good.arbo"
    assert scopes[(6, "Ja2")] == "entity.name.type.card.arbo"  # d:Ja2
    assert scopes[(6, "Ana")] == "variable.other.player.arbo"  # Ana:Oa5
    assert scopes[(6, "-1")] == "constant.numeric.cell.arbo"
    assert scopes[(6, "!!")] == "keyword.control.glyph.good.arbo"
    assert scopes[(6, "takes the oak")] == "comment.block.arbo"
    assert scopes[(6, " at once")] == "comment.line.semicolon.arbo"
    assert scopes[(7, "(")] == "punctuation.section.variation.begin.arbo"
    assert scopes[(7, "-")] == "keyword.other.draw.none.arbo"
    assert scopes[(7, "??")] == "keyword.control.glyph.mistake.arbo"
    assert scopes[(7, "$14")] == "constant.numeric.glyph.arbo"
    assert scopes[(7, ")")] == "punctuation.section.variation.end.arbo"
    assert scopes[(8, "Ben")] == "variable.other.player.arbo"  # a draw from Ben's pile
    assert scopes[(8, "!?")] == scopes[(8, "?!")] == "keyword.control.glyph.speculative.arbo"
    assert scopes[(8, "?")] == "keyword.control.glyph.mistake.arbo"
    assert scopes[(9, "reveal")] == "keyword.control.reveal.arbo"
    assert scopes[(9, "Ca1")] == "entity.name.type.card.arbo"
    assert scopes[(10, "result")] == "keyword.control.result.arbo"
    assert scopes[(10, "*")] == "constant.language.unfinished.arbo"


def test_a_turn_being_typed_is_coloured_piece_by_piece(tmp_path: Path):
    record = tmp_path / "typing.arb"
    record.write_text("---\nplayers: [Ana, Ben]\nspecies: [Ma, Oa]\n---\n12. Ana d Ben:Ja2 Ma3@1,\n", encoding="utf-8")
    scopes = scopes_of(record)
    assert scopes[(5, "12.")] == "constant.numeric.turn-number.arbo"
    assert scopes[(5, "Ana")] == scopes[(5, "Ben")] == "variable.other.player.arbo"
    assert scopes[(5, "d")] == "keyword.other.draw.deck.arbo"
    assert scopes[(5, "Ja2")] == scopes[(5, "Ma3")] == "entity.name.type.card.arbo"
    assert scopes[(5, "1")] == "constant.numeric.cell.arbo"


def test_lenient_input_reads_as_the_grammar_allows(tmp_path: Path):
    record = tmp_path / "lenient.arb"
    record.write_text(
        "---\nplayers: [Jean-Luc, O'Neil]\nspecies: [Ca, Oa]\n---\n"
        "12.Jean-Luc d d Ca3@0,0 /Oa5 13. O'Neil Jean-Luc:Oa5 d Oa5@0,0 /Ca1\n"
        "  (13. O'Neil d d Ca2@0,0 /Ca1 {safer (really)\n"
        "  on two lines})\n"
        "14. Jean-Luc d d Oa2@1,0 /Oa3 {arbo: ?! +0.0 (48 samples)}\n"
        "reveal Jean-Luc Ca4 reveal O'Neil Oa8 result *\n",
        encoding="utf-8",
    )
    scopes = scopes_of(record)
    assert scopes[(5, "12.")] == scopes[(5, "13.")] == "constant.numeric.turn-number.arbo"  # glued, two a line
    assert scopes[(5, "Jean-Luc")] == scopes[(5, "O'Neil")] == "variable.other.player.arbo"
    assert scopes[(5, "Ca1")] == "entity.name.type.card.arbo"  # the second turn's discard
    assert scopes[(6, "safer (really)")] == scopes[(7, "  on two lines")] == "comment.block.arbo"
    assert scopes[(7, ")")] == "punctuation.section.variation.end.arbo"  # the ( in the comment opens nothing
    assert scopes[(8, "arbo: ?! +0.0 (48 samples)")] == "comment.block.engine.arbo"
    assert scopes[(9, "reveal")] == "keyword.control.reveal.arbo"
    assert scopes[(9, "result")] == "keyword.control.result.arbo"
    assert scopes[(9, "O'Neil")] == "variable.other.player.arbo"
    assert scopes[(9, "*")] == "constant.language.unfinished.arbo"
