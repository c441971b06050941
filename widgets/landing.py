"""The landing page's list of games, with links to their Voila dashboards."""

from __future__ import annotations

import html
from dataclasses import dataclass

from IPython.display import HTML


@dataclass(frozen=True)
class GameEntry:
    """One game on the landing page."""

    title: str
    what: str
    credits: str
    notebook: str | None            # dashboard notebook next to index.ipynb; None while it is coming
    links: tuple[tuple[str, str], ...] = ()   # (label, query string)


GAMES: tuple[GameEntry, ...] = (
    GameEntry("Avenue", "flip-and-write roads on a square grid; reach the grapes, beat the box above",
              "Eilif Svensson and Kristian Amundsen Østby, Aporta Games (2016)", "avenue.ipynb",
              (("against the greedy bot", "bots=greedy"), ("solo", "bots=none"),
               ("against three bots", "bots=random,greedy,montecarlo"))),
    GameEntry("Kingdom Maps", "roll-and-write territories on a hex map: three dice, six terrains; solo or "
              "against bots",
              "Martín Oddino, RunDOS Studio (2020, free print-and-play)", "kingdom_maps.ipynb",
              (("with a greedy bot", "bots=greedy"), ("with three bots", "bots=greedy,random,greedy"))),
    GameEntry("Key Harvest", "bid for hex field tiles with crop counters; build two big holdings; 2–4 players "
              "(you against bots, or people at one screen)",
              "Richard Breese, R&D Games / Rio Grande Games (2007)", "key_harvest.ipynb",
              (("you + 2 greedy bots", "bots=greedy,greedy"), ("you + 1 bot", "bots=greedy"),
               ("you + 3 bots", "bots=greedy,random,greedy"),
               ("two people at one screen", "people=Ann,Bob&bots=none"))),
)


@dataclass(frozen=True)
class MoreEntry:
    """A notebook (or a folder of them) beside the games: explorers and lessons."""

    title: str
    what: str
    href: str                       # relative to index.ipynb as Voila serves it (/voila/render/notebooks/)


MORE: tuple[MoreEntry, ...] = (
    MoreEntry("What-if explorer", "change a rule, and bots play the old and the new rules on the same deals",
              "whatif.ipynb"),
    MoreEntry("Class play (for teachers)", "one deal for the whole class: hand out a link, paste the students' "
              "result codes, see the leaderboard and where the class chose beside the bots", "classroom.ipynb"),
    # Each lesson is linked to its own dashboard: a folder link lands on a file listing (Binder
    # showed the repository root), which is not a lesson.
    MoreEntry("Lesson: how many cards does a round last?",
              "Avenue's road deck: the 4th yellow card counted exactly, beside simulation",
              "lessons/avenue_cards.ipynb"),
    MoreEntry("Lesson: which die will be left for you?",
              "Kingdom Maps' three dice: order statistics counted exactly, beside simulation",
              "lessons/kingdom_dice.ipynb"),
    MoreEntry("Lesson: what is a bid worth?",
              "Key Harvest's bids: how often another player buys yours, by bid size and table size; the bag "
              "counted exactly, beside simulation",
              "lessons/key_harvest_bids.ipynb"),
    MoreEntry("Lesson: how much of a game is luck?",
              "every game: a beginner, an expert and a player who knows the deal on the same deals; the skill "
              "share step by step, a tiny deck solved exactly, and your class's scores on the line",
              "lessons/luck_and_skill.ipynb"),
)

_CSS = """<style>
table.sk-games { border-collapse: collapse; font-size: 15px; margin: 8px 0 14px 0; }
table.sk-games td, table.sk-games th { padding: 10px 16px; border-bottom: 1px solid #ddd; text-align: left;
  vertical-align: top; }
table.sk-games th { color: #666; font-weight: normal; }
table.sk-games .sk-coming { color: #777; font-style: italic; }
table.sk-games a.sk-play { font-weight: bold; font-size: 16px; }
ul.sk-more { font-size: 15px; margin: 4px 0 14px 0; }
ul.sk-more li { margin: 4px 0; }
</style>"""


# JupyterLab's rendered-HTML styles right-align table cells with selectors that outrank a class.
_LEFT = "style='text-align: left'"


def games_html(games: tuple[GameEntry, ...] = GAMES) -> str:
    """The games as an HTML table; links are relative, so they work under /voila/render/ and in Lab."""
    rows = []
    for g in games:
        if g.notebook:
            nb = html.escape(g.notebook)
            extra = " · ".join(f"<a href='{nb}?{html.escape(q)}'>{html.escape(label)}</a>" for label, q in g.links)
            play = f"<a class='sk-play' href='{nb}'>Play {html.escape(g.title)}</a><br><small>{extra}</small>"
        else:
            play = "<span class='sk-coming'>coming</span>"
        rows.append(f"<tr><td {_LEFT}><b>{html.escape(g.title)}</b><br><small>{html.escape(g.credits)}</small></td>"
                    f"<td {_LEFT}>{html.escape(g.what)}</td><td {_LEFT}>{play}</td></tr>")
    head = f"<tr><th {_LEFT}>game</th><th {_LEFT}>what you do</th><th {_LEFT}>dashboard</th></tr>"
    return f"{_CSS}<table class='sk-games'>{head}{''.join(rows)}</table>"


def more_html(more: tuple[MoreEntry, ...] = MORE) -> str:
    """The explorers and lessons, as a list of links under the games."""
    items = "".join(f"<li><a class='sk-more-link' href='{html.escape(m.href)}'>{html.escape(m.title)}</a> — "
                    f"{html.escape(m.what)}</li>" for m in more)
    return f"<ul class='sk-more'>{items}</ul>"


def games_table() -> HTML:
    """The landing page's table and the explorers and lessons below it, for display in a notebook."""
    return HTML(games_html() + more_html())
