"""Pictures and short tables for the Kingdom Maps notebook's analysis cells.

Each function takes the table's game and returns parts for ``sheetkit.widgets.live``: HTML
strings and matplotlib figures. Colour is never the only cue: exact bars are solid, simulated
frequencies are black dots, and the bot's bars are hatched.
"""

from __future__ import annotations

import html
import json
from fractions import Fraction
from typing import Any

import numpy as np
from sheetkit.widgets import theme

from sheetkit.analysis.exact import order_statistic
from sheetkit.core.chance import derive_seed, make_rng
from sheetkit.core.play import advance, bot_label
from sheetkit.games.kingdom_maps import BOTS, CRITERIA, KingdomState, parse_action
from sheetkit.games.kingdom_maps.moves import Announce, Pick

RANKS = ("lowest", "middle", "highest")
YOU = theme.OKABE_ITO["vermillion"]
BOT = theme.OKABE_ITO["sky"]


def _figure(w: float, h: float) -> Any:
    import matplotlib

    matplotlib.use("Agg", force=False)  # figures become PNGs; no GUI backend needed
    from matplotlib.figure import Figure

    return Figure(figsize=(w, h))


def order_stats_exact() -> dict[str, dict[int, Fraction]]:
    """The lowest, middle and highest of 3d6, exactly (``sheetkit.analysis.exact.order_statistic``)."""
    return {name: dict(order_statistic(3, k + 1)) for k, name in enumerate(RANKS)}


def order_stats_simulated(n: int = 6000, seed: int = 0) -> dict[str, dict[int, float]]:
    """The same three distributions from ``n`` seeded rolls of 3d6 (frequencies)."""
    rolls = np.sort(make_rng(seed).integers(1, 7, size=(n, 3)), axis=1)
    return {name: {v: float(np.mean(rolls[:, k] == v)) for v in range(1, 7)} for k, name in enumerate(RANKS)}


def order_stats_table() -> str:
    """A plain-text table of the exact order statistics of 3d6 (for a checked notebook output)."""
    exact = order_stats_exact()
    lines = ["die  " + "".join(f"{name:>16}" for name in RANKS)]
    for v in range(1, 7):
        lines.append(f"{v:>3}  " + "".join(f"{exact[name][v]!s:>9} {float(exact[name][v]):5.1%}" for name in RANKS))
    means = [sum(v * p for v, p in exact[n].items()) for n in RANKS]
    lines.append("mean " + "".join(f"{m!s:>9} {float(m):5.2f}" for m in means))
    return "\n".join(lines)


def dice_taken(state: KingdomState, me: int = 0) -> dict[str, int]:
    """How often you drew the lowest, middle or highest die of a 3-dice roll (from the game's log)."""
    counts = dict.fromkeys(RANKS, 0)
    for rank, _ in _your_dice(state, me):
        counts[rank] += 1
    return counts


def _your_dice(state: KingdomState, me: int) -> list[tuple[str, int]]:
    """(rank among the three dice, value) of each die you took or picked from a 3-dice roll."""
    out: list[tuple[str, int]] = []
    dice: list[int] = []
    for entry in state.log:
        if entry.get("chance") == "roll":
            dice = sorted(entry["dice"])
            continue
        if entry.get("player") != me or len(dice) != 3:
            continue
        action = parse_action(entry["action"])
        if isinstance(action, Announce | Pick):
            ranks = [RANKS[k] for k, d in enumerate(dice) if d == action.die]
            out.append((ranks[-1] if isinstance(action, Announce) else ranks[0], action.die))
    return out


def dice_figure(n: int = 6000) -> Any:
    """Lowest, middle and highest of 3d6: exact bars beside ``n`` seeded simulated rolls (dots)."""
    exact = order_stats_exact()
    sim = order_stats_simulated(n)
    fig = _figure(7.2, 2.2)
    axes = fig.subplots(1, 3, sharey=True)
    xs = list(range(1, 7))
    for ax, name in zip(axes, RANKS, strict=True):
        ax.bar(xs, [float(exact[name][v]) for v in xs], color=BOT, width=0.8, label="exact")
        ax.plot(xs, [sim[name][v] for v in xs], "o", color="black", markersize=4, label=f"{n} simulated rolls")
        mean = float(sum(v * p for v, p in exact[name].items()))
        ax.axvline(mean, color="black", linestyle="--", linewidth=0.8)
        ax.set_title(f"{name} die (mean {mean:.2f})", fontsize=9)
        ax.set_xticks(xs)
        ax.tick_params(labelsize=7)
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_ylabel("probability", fontsize=8)
    axes[0].legend(fontsize=7, frameon=False, loc="upper left")
    fig.tight_layout()
    return fig


def dice_panel(n: int = 6000) -> Any:
    """``dice_figure`` as a widget (a crisp 2× PNG) for a notebook cell."""
    from sheetkit.widgets.live import to_widget

    return to_widget(dice_figure(n))


def dice_left(state: KingdomState, me: int = 0) -> str:
    """Which of the three dice you drew in this game, beside what each one gives on average (HTML)."""
    mine = _your_dice(state, me)
    if not mine:
        return "<div>As you play, this counts which of the three dice you drew (lowest, middle or highest).</div>"
    exact = order_stats_exact()
    means = {k: float(sum(v * p for v, p in exact[k].items())) for k in RANKS}
    counts = dice_taken(state, me)
    parts = ", ".join(f"the {k} <b>{counts[k]}</b>×" for k in RANKS)
    avg = sum(v for _, v in mine) / len(mine)
    return (f"<div>Of {len(mine)} three-dice roll{'s' if len(mine) != 1 else ''} you drew {parts}. "
            f"Your dice averaged <b>{avg:.2f}</b> hexes; on average the highest die shows {means['highest']:.2f}, "
            f"the middle {means['middle']:.2f} and the lowest {means['lowest']:.2f}.</div>")


# ----- your criteria beside the bot's ------------------------------------------------------------

_BOT_GAMES: dict[str, list[tuple[int, int, dict[str, int], int]]] = {}


def bot_path(state: KingdomState, bot: str = "greedy") -> list[tuple[int, int, dict[str, int], int]]:
    """The bot alone on your setup (same rolls in solo): (turn, step, criterion scores, banked ?) per drawing."""
    key = json.dumps([state.params.to_json(), state.seed, None if state.deal is None else state.deal.to_json(),
                      bot, state.num_players])
    if key in _BOT_GAMES:
        return _BOT_GAMES[key]
    game = KingdomState(state.params, [bot_label(bot)], seed=state.seed, deal=state.deal)
    player = BOTS[bot](seed=derive_seed(state.seed or 0, "versus", 0))
    path: list[tuple[int, int, dict[str, int], int]] = []

    def before_roll() -> None:
        """Where the bot stands as the table is about to roll: the end of a drawing."""
        if game.is_chance_node() and not game.is_terminal() and game.criteria:
            path.append((game.turn, game.step, game.criterion_scores(0), sum(p for _, p in game.sheets[0].banked)))

    before_roll()
    for _ in advance(game, [player], fast=True):
        before_roll()
    path.append((game.turn + 1, 0, game.criterion_scores(0), sum(p for _, p in game.sheets[0].banked)))
    if len(_BOT_GAMES) > 32:
        _BOT_GAMES.clear()
    _BOT_GAMES[key] = path
    return path


def versus_bot(state: KingdomState, me: int = 0) -> list[Any]:
    """Your criteria (and ? box) beside the greedy bot's — the bots at your table, or solo the bot on your dice."""
    if not state.criteria:
        return ["<i>The criteria are rolled at the start.</i>"]
    codes = list(state.criteria)
    yours = state.criterion_scores(me)
    your_q = sum(p for _, p in state.sheets[me].banked)
    if state.num_players > 1:
        others = [(state.players[p], state.criterion_scores(p), sum(x for _, x in state.sheets[p].banked))
                  for p in range(state.num_players) if p != me]
        when = "now" if not state.is_terminal() else "at the end"
        intro = f"Your map beside the other players' {when}."
    else:
        path = bot_path(state)
        if state.is_terminal():
            _, _, scores, q = path[-1]
            when = "at the end of its game"
        else:
            done = [row for row in path if (row[0], row[1]) < (state.turn, state.step)]
            _, _, scores, q = done[-1] if done else (0, 0, dict.fromkeys(codes, 0), 0)
            when = f"as it stood when your turn {state.turn}" + (f", drawing {state.step}," if state.step else "") \
                + " began"
        others = [("Greedy bot, same dice", scores, q)]
        intro = f"The greedy bot played your very dice alone; its map {when}."
    labels = [*codes, "? box"]
    fig = _figure(6.8, 2.4)
    ax = fig.subplots()
    width = 0.8 / (1 + len(others))
    xs = np.arange(len(labels))
    mine = [yours[c] for c in codes] + [your_q]
    ax.bar(xs - 0.4 + width / 2, mine, width, color=YOU, label="you")
    for j, (name, sc, q) in enumerate(others):
        vals = [sc.get(c, 0) for c in codes] + [q]
        ax.bar(xs - 0.4 + width * (j + 1.5), vals, width, color=BOT, hatch="///", edgecolor="black",
               linewidth=0.4, label=name)
    ax.set_xticks(xs)
    ax.set_xticklabels([f"{c}\n{CRITERIA[c].name}" if c in CRITERIA else c for c in labels], fontsize=7)
    ax.tick_params(labelsize=7)
    ax.set_ylabel("points", fontsize=8)
    ax.legend(fontsize=7, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    rows = "".join(
        f"<tr><td>{html.escape(name)}</td>" + "".join(f"<td>{sc.get(c, 0)}</td>" for c in codes)
        + f"<td>{q}</td><td><b>{sum(sc.get(c, 0) for c in codes) + q}</b></td></tr>"
        for name, sc, q in [("You", yours, your_q), *others])
    head = "".join(f"<th>{c}</th>" for c in codes)
    table = f"<table class='sk-review'><tr><th>who</th>{head}<th>? box</th><th>total</th></tr>{rows}</table>"
    return [f"<div>{html.escape(intro)}</div>", fig, table]
