"""``python -m sheetkit``: replay, validate and simulate games from a terminal."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from sheetkit.core.errors import RecordError, SheetkitError
from sheetkit.core.records import check_record, load_record, replay


def _print_breakdown(state: Any, spec: Any) -> None:
    for b in spec.breakdown(state):
        print(f"{b['player']}: {b['total']} points — placing {b['placing']}")
        for f in b.get("farms", []):
            verdict = "written" if f["box"] else ("0 — did not beat" if f["grapes"] else "0 — no grapes")
            print(f"  round {f['round']}: farm {f['farm']} reached {f['grapes']} grapes, needed more than "
                  f"{f['target']} → {f['box']} ({verdict})")
        if "castles" in b:
            print(f"  castles: purple {b['castles']['purple']}, green {b['castles']['green']}")
            print(f"  zero boxes: {b['zeros']} → {b['penalty']}")


def cmd_replay(args: argparse.Namespace) -> int:
    doc = load_record(args.record)
    state = replay(doc)
    spec, _, _ = check_record(doc)
    if args.json:
        print(json.dumps({"game": spec.name, "final": state.is_terminal(), "scores": state.scores(),
                          "breakdown": spec.breakdown(state)}))
    else:
        if not state.is_terminal():
            print("(the record stops before the end of the game; scores so far)")
        _print_breakdown(state, spec)
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    doc = load_record(args.record)
    state = replay(doc)
    print(f"ok: {doc['game']} record, {len(doc['log'])} log entries, "
          f"{'finished' if state.is_terminal() else 'not finished'}")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from sheetkit.analysis.simulate import run_games
    from sheetkit.core.registry import get_game

    spec = get_game(args.game)
    if args.variant not in spec.presets:
        raise SheetkitError(f"unknown variant {args.variant!r}; choose from {', '.join(spec.presets)}")
    if not spec.min_players <= args.players <= spec.max_players:
        raise SheetkitError(f"{spec.title} takes {spec.min_players} to {spec.max_players} players")
    if args.n < 1 or args.n > 10_000_000:
        raise SheetkitError("-n must be between 1 and 10,000,000")
    progress = sys.stderr.isatty() and not args.no_progress
    result = run_games(spec.name, args.bot, args.n, seed=args.seed, players=args.players,
                       params=spec.presets[args.variant](), progress=progress)
    summary = result.summary()
    summary["variant"] = args.variant
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"{spec.title}, {args.variant} rules, bot {args.bot}, {summary['games']} games × "
              f"{args.players} player(s), seed {args.seed}")
        print(f"  mean {summary['mean']:.2f}  stdev {summary['stdev']:.2f}  min {summary['min']}  "
              f"max {summary['max']}  ({summary['seconds']:.2f} s, {summary['games'] / max(result.seconds, 1e-9):,.0f} games/s)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for docs and tests)."""
    p = argparse.ArgumentParser(prog="python -m sheetkit", description="Replay, check and simulate sheetkit games.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("replay", help="replay a saved record and print the final score breakdown")
    r.add_argument("record", help="path to a record (.json)")
    r.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    r.set_defaults(func=cmd_replay)
    v = sub.add_parser("validate", help="check a record; exit code 2 and the reason if it is bad")
    v.add_argument("record")
    v.set_defaults(func=cmd_validate)
    s = sub.add_parser("simulate", help="play many seeded games with bots and summarise the scores")
    s.add_argument("--game", default="avenue")
    s.add_argument("--bot", default="greedy")
    s.add_argument("-n", type=int, default=1000, help="number of games")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--players", type=int, default=1)
    s.add_argument("--variant", default="standard", help="a named rule variant (preset)")
    s.add_argument("--json", action="store_true", help="print one JSON line")
    s.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    s.set_defaults(func=cmd_simulate)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; user errors print one line on stderr and exit with code 2 (never a traceback)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (RecordError, SheetkitError, KeyError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else str(e)
        print(f"error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
