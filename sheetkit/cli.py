"""``python -m sheetkit``: replay, validate and simulate games from a terminal."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sheetkit.core.errors import RecordError, SheetkitError
from sheetkit.core.records import check_record, load_record, replay

MAX_GAMES = 10_000_000


def cmd_replay(args: argparse.Namespace) -> int:
    from sheetkit.analysis.text import breakdown_lines

    doc = load_record(args.record)
    state = replay(doc)
    spec, _, _ = check_record(doc)
    if args.json:
        print(json.dumps({"game": spec.name, "final": state.is_terminal(), "scores": state.scores(),
                          "breakdown": spec.breakdown(state)}))
    else:
        if not state.is_terminal():
            print("(the record stops before the end of the game; scores so far)")
        if spec.breakdown is None:
            print("scores: " + ", ".join(f"{name} {s}" for name, s in zip(state.players, state.scores(), strict=True)))
        else:
            for line in breakdown_lines(spec.name, spec.breakdown(state)):
                print(line)
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    doc = load_record(args.record)
    state = replay(doc)
    print(f"ok: {doc['game']} record, {len(doc['log'])} log entries, "
          f"{'finished' if state.is_terminal() else 'not finished'}")
    return 0


# ---------------------------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------------------------
def parse_value(text: str) -> Any:
    """A ``--set`` value: JSON (``3``, ``false``, ``[4, 3]``), true/false/yes/no/on/off, null/none/default
    (the game's default), a comma list (``A1,B2``) or else plain text."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("null", "none", "default"):
        return None
    try:
        return json.loads(t)
    except ValueError:
        pass
    if "," in t:
        return [parse_value(x) for x in t.split(",") if x.strip()]
    return t


def parse_sets(items: Sequence[str]) -> dict[str, Any]:
    """``["penalty=3", "rising=false"]`` → ``{"penalty": 3, "rising": False}`` (later keys win)."""
    out: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise SheetkitError(f"--set expects KEY=VALUE (e.g. --set penalty=3), not {item!r}")
        out[key.strip()] = parse_value(value)
    return out


def _variant(spec: Any, text: str, option: str) -> tuple[str, Any]:
    """(label, params) from a preset name or a JSON object of params."""
    from sheetkit.analysis.montecarlo import resolve_variant

    t = text.strip()
    if t.startswith("{"):
        try:
            doc = json.loads(t)
        except ValueError as e:
            raise SheetkitError(f"{option}: not valid JSON ({e.msg})") from None
        return resolve_variant(spec.name, spec.parse_params(doc, option))
    if t not in spec.presets:
        raise SheetkitError(f"unknown variant {t!r}; choose from {', '.join(spec.presets)}")
    return t, spec.presets[t]()


def _seat_bots(spec: Any, args: argparse.Namespace) -> list[str]:
    if args.bots is not None and args.bot is not None:
        raise SheetkitError("give either --bot (one bot in every seat) or --bots (one per seat), not both")
    if args.bots is not None:
        bots = [b.strip() for b in args.bots.split(",")]
        if not all(bots):
            raise SheetkitError(f"--bots expects names separated by commas (e.g. greedy,random), not {args.bots!r}")
        if args.players is not None and args.players != len(bots):
            raise SheetkitError(f"--bots names {len(bots)} bot(s) but --players says {args.players}")
    else:
        bots = [args.bot or "greedy"] * (args.players if args.players is not None else 1)
    for b in bots:
        if b not in spec.bots:
            raise SheetkitError(f"unknown bot {b!r} for {spec.title}; choose from {', '.join(spec.bots)}")
    if not spec.min_players <= len(bots) <= spec.max_players:
        raise SheetkitError(f"{spec.title} takes {spec.min_players} to {spec.max_players} players")
    return bots


def _summary(res: Any, v: int, label: str, bots: list[str], level: float) -> dict[str, Any]:
    """The classic one-line summary (every seat's scores pooled) plus the mean's CI and, with several
    seats, each seat's own line."""
    from sheetkit.analysis.montecarlo import mean_ci

    flat = [int(x) for x in res.scores[:, v, :].ravel()]
    n = res.games
    out: dict[str, Any] = {
        "game": res.game, "bot": ",".join(bots) if len(set(bots)) > 1 else bots[0], "games": n,
        "players": len(bots), "seed": res.seed,
        "mean": round(sum(flat) / len(flat), 3) if flat else None,
        "stdev": round(float(_stdev(flat)), 3) if len(flat) > 1 else 0.0,
        "min": min(flat) if flat else None, "max": max(flat) if flat else None,
        "seconds": round(res.seconds, 3), "variant": label,
    }
    if n > 1:
        ci = mean_ci(res.values(v), level)   # the deal is the unit: seats of one deal are not independent
        out.update(ci_low=round(ci.low, 3), ci_high=round(ci.high, 3), level=level)
    if len(bots) > 1:
        seats = []
        for p, b in enumerate(bots):
            x = res.values(v, p)
            row: dict[str, Any] = {"player": p, "bot": b, "mean": round(float(x.mean()), 3) if n else None}
            if n > 1:
                ci = mean_ci(x, level)
                row.update(stdev=round(float(x.std(ddof=1)), 3), ci_low=round(ci.low, 3), ci_high=round(ci.high, 3))
            seats.append(row)
        out["seats"] = seats
    return out


def _stdev(xs: list[int]) -> float:
    import statistics

    return statistics.stdev(xs)


def _executor(args: argparse.Namespace, stack: contextlib.ExitStack) -> Any:
    if args.dask is None:
        return None
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SheetkitError("--dask needs dask.distributed: pip install 'sheetkit-games[scale]'") from None
    import logging

    if args.dask == "local":
        from sheetkit.analysis.montecarlo import _cores

        cluster = stack.enter_context(LocalCluster(n_workers=args.workers or _cores(), threads_per_worker=1,
                                                   processes=True, dashboard_address=None,
                                                   silence_logs=logging.ERROR))
        return stack.enter_context(Client(cluster))
    try:
        return stack.enter_context(Client(args.dask, timeout="10s"))
    except OSError as e:
        raise SheetkitError(f"--dask: cannot reach the scheduler at {args.dask} ({e})") from None


def cmd_simulate(args: argparse.Namespace) -> int:
    from sheetkit.analysis.measures import breakdown_measure
    from sheetkit.analysis.montecarlo import GAME_TABLE, Comparison, params_with, play_variants
    from sheetkit.core.registry import get_game

    spec = get_game(args.game)
    if args.n < 1 or args.n > MAX_GAMES:
        raise SheetkitError("-n must be between 1 and 10,000,000")
    if args.workers is not None and args.workers < 1:
        raise SheetkitError("--workers must be at least 1")
    if not 0 < args.level < 1:
        raise SheetkitError("--level must be between 0 and 1, e.g. 0.95")
    if not 0 <= args.seed < 2**63:
        raise SheetkitError("--seed must be a whole number from 0 to 2**63 - 1")
    if args.format and not args.out:
        raise SheetkitError(f"--format {args.format} says how to write the per-game table: add --out FILE")
    bots = _seat_bots(spec, args)
    base_label, base = _variant(spec, args.variant, "--variant")
    sets = parse_sets(args.set or [])
    if sets:
        try:
            new = params_with(spec.name, base, sets, path="--set")
        except RecordError as e:
            raise SheetkitError(str(e).replace("--set.", "--set ", 1)) from None
        label = f"{base_label} " + " ".join(item.strip() for item in args.set)
    else:
        new, label = base, base_label
    variants: dict[str, Any] = {}
    if args.compare is not None:
        if args.compare == "":
            if not sets:
                raise SheetkitError("--compare without a variant compares --variant with its --set changes: "
                                    "add --set KEY=VALUE, or name the rules to compare with (--compare norise)")
            old_label, old = base_label, base
        else:
            old_label, old = _variant(spec, args.compare, "--compare")
        if old_label == label:
            old_label, label = f"old {old_label}", f"new {label}"
        variants[old_label] = old
    variants[label] = new
    if args.seat is not None and not 0 <= args.seat < len(bots):
        raise SheetkitError(f"--seat must be between 0 and {len(bots) - 1}")
    fmt = args.format or ("json" if args.out and Path(args.out).suffix.lower() == ".json" else "csv")
    progress = sys.stderr.isatty() and not args.no_progress
    with contextlib.ExitStack() as stack:
        executor = _executor(args, stack)
        res = play_variants(spec.name, variants, args.n, seed=args.seed, bots=bots, executor=executor,
                            workers=args.workers, progress=progress,
                            measure=breakdown_measure(spec.name) if args.out else None)
    if args.out:
        if fmt == "json":
            res.to_json(args.out, meta=True, names=GAME_TABLE)
        else:
            res.to_csv(args.out, names=GAME_TABLE)
    lines = [_summary(res, v, lab, bots, args.level) for v, lab in enumerate(res.variants)]
    cmp = Comparison(res, res.variants[0], res.variants[-1], args.seat, args.level) if len(variants) > 1 else None
    if args.json:
        for line in lines:
            print(json.dumps(line))
        if cmp is not None:
            out = cmp.summary()
            out["compare"] = f"{cmp.b} - {cmp.a}"
            out["seat"] = args.seat
            print(json.dumps(out))
    else:
        _print_text(spec, res, lines, cmp, bots, args)
    return 0


def _print_text(spec: Any, res: Any, lines: list[dict[str, Any]], cmp: Any, bots: list[str],
                args: argparse.Namespace) -> None:
    who = f"bot {bots[0]}" if len(set(bots)) == 1 else "bots " + ", ".join(bots)
    rate = res.games * len(res.variants) / max(res.seconds, 1e-9)
    for line in lines:
        print(f"{spec.title}, {line['variant']} rules, {who}, {line['games']} games × {len(bots)} player(s), "
              f"seed {args.seed}")
        print(f"  mean {line['mean']:.2f}  stdev {line['stdev']:.2f}  min {line['min']}  "
              f"max {line['max']}  ({res.seconds:.2f} s, {rate:,.0f} games/s)")
        if "ci_low" in line:
            print(f"  {args.level:.0%} CI of the mean: {line['ci_low']:.2f} to {line['ci_high']:.2f}")
        for s in line.get("seats", []):
            ci = f"  CI {s['ci_low']:.2f} to {s['ci_high']:.2f}" if "ci_low" in s else ""
            print(f"    player {s['player']} ({s['bot']}): mean {s['mean']:.2f}{ci}")
    if cmp is not None:
        d, u = cmp.difference, cmp.unpaired
        whose = "every seat's mean" if args.seat is None else f"player {args.seat}"
        r = cmp.correlation()
        print(f"{cmp.b} − {cmp.a} ({whose}, same {res.games} deals): {d.estimate:+.2f} ± {d.half_width:.2f} "
              f"({args.level:.0%} CI {d.low:.2f} to {d.high:.2f}, paired)")
        print(f"  as if independent games: ± {u.half_width:.2f}; correlation {r:.2f}"
              + (f"; pairing is worth ×{(u.half_width / d.half_width) ** 2:.1f} games"
                 if d.half_width > 0 and not math.isnan(r) else ""))
        if d.excludes_zero():
            print(f"  the difference shows: the CI excludes 0 ({'higher' if d.estimate > 0 else 'lower'} "
                  f"scores under {cmp.b})")
        else:
            print("  no difference shows at this many games: the CI includes 0")
    if args.out:
        print(f"wrote {res.games * len(res.variants) * len(bots)} rows to {args.out}")


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
    s = sub.add_parser(
        "simulate", help="play many seeded games with bots and summarise the scores",
        description="Play seeded bot games. The rules played are --variant with any --set changes; "
                    "--compare also plays other rules on the very same deals (common random numbers) "
                    "and prints the paired difference with its confidence interval.",
        epilog="examples:\n"
               "  python -m sheetkit simulate -n 1000 --set penalty=3 --set rising=false --compare\n"
               "  python -m sheetkit simulate -n 1000 --variant norise --compare standard --workers 2\n"
               "  python -m sheetkit simulate -n 500 --bots greedy,random --out games.csv\n"
               "  python -m sheetkit simulate --game kingdom-maps -n 100 --set powers=false --compare --json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("--game", default="avenue")
    s.add_argument("--bot", default=None, help="the bot in every seat (default greedy)")
    s.add_argument("--bots", default=None, metavar="B1,B2,…", help="one bot per seat, e.g. greedy,random")
    s.add_argument("-n", type=int, default=1000, help="number of games (deals)")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--players", type=int, default=None, help="seats (default 1, or as many as --bots names)")
    s.add_argument("--variant", default="standard", help="a named rule variant (preset), or a JSON object of rules")
    s.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="change one rule (repeatable): penalty=3, rising=false, deck.5=[4,3], criteria=A1,A2,B1,B2; "
                        "null restores the default")
    s.add_argument("--compare", nargs="?", const="", default=None, metavar="VARIANT",
                   help="also play these rules on the same deals and print the difference: a preset or JSON; "
                        "with no value, --variant without the --set changes")
    s.add_argument("--seat", type=int, default=None, help="compare this player's score (default: all seats' mean)")
    s.add_argument("--level", type=float, default=0.95, help="confidence level of the intervals (default 0.95)")
    s.add_argument("--workers", type=int, default=None,
                   help="processes to play on (default: every core for big runs; 1 = this process)")
    s.add_argument("--dask", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="play on a dask cluster: a scheduler address, or no value for a local one")
    s.add_argument("--out", default=None, metavar="FILE",
                   help="write the per-game table: one row per game × player with the score breakdown")
    s.add_argument("--format", choices=["csv", "json"], default=None,
                   help="format of --out (default: from the file name, else csv)")
    s.add_argument("--json", action="store_true", help="print one JSON line per rule set (and the comparison)")
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
    except OSError as e:
        print(f"error: {e.strerror or e}: {e.filename}" if e.filename else f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
