"""Record the Kingdom Maps greedy bot's moves on seeded games: tests/data/kingdom_greedy_golden.json.

Usage: .venv/bin/python tests/kingdom_greedy_golden.py [--check]

The moves come from the greedy bot as it was before issue #8 (``tests/old_kingdom_greedy.py``,
which rescores every criterion for every candidate hex). ``tests/test_kingdom_bot_golden.py`` plays the
same games with today's ``GreedyBot`` and asserts identical moves; it imports ``GAMES``, ``play`` and
``encode`` from here, so the two always agree on the setups. ``--check`` compares instead of writing.

Games: every preset × 1–4 players × 2 seeds with the greedy bot in every seat, plus 12 games with
random bots beside a greedy one (the greedy bot then meets maps no greedy bot would draw).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sheetkit.core.chance import derive_seed
from sheetkit.core.play import play_out
from sheetkit.games.kingdom_maps import PRESETS, KingdomState
from sheetkit.games.kingdom_maps.bots import RandomBot

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "kingdom_greedy_golden.json"
PRESET_ORDER = ("standard", "plain", "nopowers", "family", "long", "grand")


def _games() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for preset in PRESET_ORDER:
        for players in (1, 2, 3, 4):
            for k in range(2):
                out.append({"preset": preset, "seats": ["greedy"] * players,
                            "seed": 1000 + 97 * len(out) + k})
    for k in range(12):
        players = 2 + k % 3
        seats = ["random"] * players
        seats[k % players] = "greedy"
        out.append({"preset": PRESET_ORDER[k % len(PRESET_ORDER)], "seats": seats, "seed": 5000 + 31 * k})
    return out


GAMES: list[dict[str, Any]] = _games()


def encode(state: KingdomState) -> str:
    """The players' moves of a finished game as short tokens: ``<player><move>`` (table steps left out)."""
    board = state.board
    toks = []
    for e in state.log:
        if "chance" in e:
            continue
        a = e["action"]
        kind = a["type"]
        if kind == "announce":
            m = f"A{a['terrain']}{a['die']}"
        elif kind == "pick":
            m = f"K{a['die']}"
        elif kind == "power":
            m = "P+" if a["delta"] > 0 else "P-"
        elif kind == "place":
            m = f"H{board.index[(a['q'], a['r'])]}"
        elif kind == "bank":
            m = f"B{a['criterion']}"
        else:
            m = "X"
        toks.append(f"{e['player']}{m}")
    return " ".join(toks)


def play(game: dict[str, Any], greedy: Callable[..., Any]) -> KingdomState:
    """Play one golden game on the checked path: ``greedy`` is the greedy bot class to seat."""
    seed = game["seed"]
    state = KingdomState(PRESETS[game["preset"]], len(game["seats"]), seed=seed)
    bots = [(greedy if kind == "greedy" else RandomBot)(seed=derive_seed(seed, "bot", p))
            for p, kind in enumerate(game["seats"])]
    return play_out(state, bots)


def fingerprint_hash(state: KingdomState) -> str:
    return hashlib.sha256(state.fingerprint().encode()).hexdigest()[:16]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="compare the old bot's moves with the file, do not write")
    a = p.parse_args()
    sys.path.insert(0, str(Path(__file__).parent))
    from old_kingdom_greedy import GreedyBot as OldGreedy

    rows = []
    for game in GAMES:
        state = play(game, OldGreedy)
        rows.append({**game, "scores": state.scores(), "fingerprint": fingerprint_hash(state),
                     "moves": encode(state)})
    doc = {"about": "Kingdom Maps greedy bot moves before issue #8; made by tests/kingdom_greedy_golden.py",
           "games": rows}
    text = json.dumps(doc, indent=0) + "\n"
    if a.check:
        same = json.loads(GOLDEN.read_text("utf-8")) == doc
        print("identical" if same else "DIFFERENT")
        return 0 if same else 1
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    GOLDEN.write_text(text, encoding="utf-8")
    moves = sum(len(r["moves"].split()) for r in rows)
    print(f"wrote {GOLDEN.relative_to(ROOT)}: {len(rows)} games, {moves} moves, {len(text):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
