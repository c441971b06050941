"""Read a dashboard link's options (``?code=AV-XXXX-XXXX&bots=greedy,random``) from Voila's QUERY_STRING.

``hints=off`` (class play's links) takes the Hint button off the table.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlencode

MAX_BOTS = 3
NO_BOTS = ("", "none", "solo")
HINTS_OFF = ("off", "no", "0", "false", "none")


@dataclass(frozen=True)
class DashboardOptions:
    """What a shared link asks for; ``problems`` holds plain-words notes about parts that were ignored."""

    code: str | None = None
    bots: tuple[str, ...] | None = None     # None: the link did not say
    problems: tuple[str, ...] = field(default=())
    resume: str | None = None               # a game in progress (sheetkit/analysis/resume.py)
    query: str = ""                         # the whole query string read
    hints: bool = True                      # False: the table shows no Hint button (class play)


def query_string(environ: Mapping[str, str] | None = None) -> str:
    """The page's query string as Voila passes it to the kernel ('' in a plain notebook)."""
    env = os.environ if environ is None else environ
    return env.get("QUERY_STRING", "") or ""


def dashboard_options(query: str | None = None, known_bots: Collection[str] = ("random", "greedy", "montecarlo"),
                      ) -> DashboardOptions:
    """Parse ``code`` and ``bots`` from a query string (default: Voila's QUERY_STRING); never raises."""
    q = query_string() if query is None else query
    q = q.lstrip("?")
    try:
        params = parse_qs(q, keep_blank_values=True, max_num_fields=20)
    except ValueError:
        return DashboardOptions(problems=("the link's options could not be read",), query=q)
    problems: list[str] = []
    code = (params.get("code") or [""])[-1].strip() or None
    bots: tuple[str, ...] | None = None
    if "bots" in params:
        raw = (params["bots"][-1] or "").strip().lower()
        names = [] if raw in NO_BOTS else [b.strip() for b in raw.split(",") if b.strip()]
        good = [b for b in names if b in known_bots]
        bad = [b for b in names if b not in known_bots]
        if bad:
            problems.append(f"unknown bot {', '.join(repr(b[:20]) for b in bad[:3])} in the link "
                            f"(bots: {', '.join(known_bots)})")
        if len(good) > MAX_BOTS:
            problems.append(f"at most {MAX_BOTS} bots at this table")
            good = good[:MAX_BOTS]
        bots = tuple(good)
    resume = (params.get("resume") or [""])[-1].strip() or None
    hints = (params.get("hints") or ["on"])[-1].strip().lower() not in HINTS_OFF
    return DashboardOptions(code, bots, tuple(problems), resume, q, hints)


def share_query(code: str | None, bots: Collection[str], hints: bool = True) -> str:
    """The query string that reopens this deal with these bots: 'code=AV-…&bots=greedy' (and '&hints=off')."""
    items: dict[str, str] = {}
    if code:
        items["code"] = code
    items["bots"] = ",".join(bots) if bots else "none"
    if not hints:
        items["hints"] = "off"
    return urlencode(items, safe=",")
