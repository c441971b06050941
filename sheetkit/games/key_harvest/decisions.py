"""The decisions an effect asks a player for: the prompts, the options to choose from, the answers.

``Decisions`` is a part of ``KeyHarvestState`` (mixed in). Effects (effects.py) queue a decision
as a plain dict (``player``, ``kind``, ``source`` …); ``pending`` shows the first one, ``_options``
lists its answers (``legal_actions`` of the player asked) and ``_answer`` carries one out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheetkit.games.key_harvest import board as B
from sheetkit.games.key_harvest.crops import CROP_INDEX, CROPS, add, mixes, sub
from sheetkit.games.key_harvest.events import EVENTS
from sheetkit.games.key_harvest.moves import Choose
from sheetkit.games.key_harvest.phases import REFILL
from sheetkit.games.key_harvest.workers import WORKERS

DECLINE = "decline"
SALE_PRICE = 3  # counters the land-sale event asks per tile (known from play reports)

_PROMPTS = {
    "crop": "Choose a crop to take from the stock",
    "miller": "Choose a crop: take 2 counters of it from the stock",
    "substitute": "Choose a crop still in stock to take instead of one that ran out",
    "give": "Choose a crop to give to the stock (or decline)",
    "take": "Choose a crop to take from the stock in exchange",
    "notary": "Choose a tile of your store to put on your board now (or decline)",
    "foreman": "Choose one of your unharvested groups to harvest (or decline)",
    "lawyer": "Choose a tile from another player's store to take (or decline)",
    "bailiff": "Choose a tile from the land registry to take for free (or decline)",
    "census": "Census: choose a tile from the land registry to take for free (or decline)",
    "replace": "Your worker was displaced: choose a space to put it on again (or decline: it goes back)",
    "pass": "Boundary shift: choose one of your field tiles to pass to the player on your left",
    "sale": "Land sale: choose a registry tile and 3 counters to pay for it (or decline)",
    "frost": "Late frost: choose one of your unharvested tiles to turn over",
}


@dataclass(frozen=True)
class Pending:
    """A decision an effect asks one player for; answer it with one of ``legal_actions(player)`` (``Choose``)."""

    player: int
    kind: str  # crop, miller, substitute, give, take, notary, foreman, lawyer, bailiff, census, replace, pass, ...
    prompt: str  # plain words: what to choose
    source: str  # the worker or event id that asked (or "harvest", "displaced")
    worker: str | None = None  # for "replace": the displaced worker's id

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "kind": self.kind, "prompt": self.prompt, "source": self.source,
                "worker": self.worker}


class Decisions:
    """The decision asked now, its prompt in words, its options, and carrying out an answer."""

    @property
    def pending(self) -> Pending | None:
        """The decision asked now, or None."""
        if not self.queue:
            return None
        t = self.queue[0]
        return Pending(t["player"], t["kind"], self._prompt(t), t.get("source", ""), t.get("worker"))

    def _prompt(self, t: dict[str, Any]) -> str:
        k = t["kind"]
        if k == "replace":
            w = WORKERS[t["worker"]]
            return f"Your {w.name} ({w.value}) was displaced: choose a space to put it on again (or decline)"
        if k == "take":
            text = f"Choose a crop to take from the stock for your {CROPS[t['gave']]}"
        elif k == "substitute":
            text = f"{_PROMPTS[k]} ({t['n']} to take)"
        elif k == "pass":
            left = self.players[(t["player"] + 1) % self.num_players]
            text = f"Boundary shift: choose one of your field tiles to pass to {left}"
        else:
            text = _PROMPTS[k]
        # the worker or event asking goes first, so that the Gleaner and Bountiful season (say) ask in their own name
        src = t.get("source")
        name = WORKERS[src].name if src in WORKERS else EVENTS[src].name if src in EVENTS else None
        if name is not None and not text.startswith(name):
            text = f"{name}: {text[0].lower()}{text[1:]}"
        return text

    def _options(self, t: dict[str, Any]) -> list[Choose]:
        p, k = t["player"], t["kind"]
        out: list[Choose] = []
        decline = True
        if k in ("crop", "miller", "substitute"):
            out = [Choose(CROPS[c]) for c in range(5) if self.stock[c]]
            decline = False
        elif k == "give":
            mine = self.counters[p]
            out = [Choose(CROPS[c]) for c in range(5)
                   if mine[c] and any(self.stock[d] for d in range(5) if d != c)]
        elif k == "take":
            out = [Choose(CROPS[c]) for c in range(5) if c != t["gave"] and self.stock[c]]
            decline = False
        elif k == "notary":
            out = [Choose(code) for code, _, _ in self.stores[p]]
        elif k == "foreman":
            out = [Choose(code) for code in B.codes_in(self._up[p])]
        elif k == "lawyer":
            out = [Choose(code) for o in range(self.num_players) if o != p and not self.protected[o]
                   for code, _, _ in self.stores[o]]
        elif k in ("bailiff", "census"):
            out = [Choose(code) for code in self.registry]
        elif k == "replace":
            out = [Choose(code) for code in self._spaces(p, t["worker"])]
        elif k == "pass":
            out = [Choose(code) for code in B.codes_in(self._tiles[p])]
            decline = False
        elif k == "frost":
            out = [Choose(code) for code in B.codes_in(self._up[p])]
            decline = False
        elif k == "sale":
            mine = self.counters[p]
            if sum(mine) >= SALE_PRICE:
                pays = mixes(SALE_PRICE, mine)
                out = [Choose(code, m) for code in self.registry for m in pays]
        if out and decline:
            out.append(Choose(DECLINE))
        return out

    def _settle(self) -> None:
        """Drop decisions that have nothing to choose (and settle forced ones); then let the table go on."""
        while self.queue:
            t = self.queue[0]
            if t["kind"] == "substitute":
                left = [c for c in range(5) if self.stock[c]]
                if len(left) == 1:
                    self._take(t["player"], left[0], t["n"])
                    self.queue.pop(0)
                    continue
            if self._options(t):
                return
            self.queue.pop(0)
        if self.phase == REFILL:
            self._continue_refill()

    def _answer(self, t: dict[str, Any], ch: Choose) -> None:
        p, k, v = t["player"], t["kind"], ch.value
        self.queue.pop(0)
        self.journal.append({"what": "choose", "player": p, "kind": k, "value": v, "source": t.get("source"),
                             "counters": list(ch.counters) if ch.counters is not None else None})
        if v == DECLINE:
            return
        if k == "crop":
            self._take(p, CROP_INDEX[v])
        elif k == "miller":
            self._take(p, CROP_INDEX[v], 2)
        elif k == "substitute":
            self._take(p, CROP_INDEX[v])
            if t["n"] > 1 and any(self.stock):
                self.queue.insert(0, {**t, "n": t["n"] - 1})
        elif k == "give":
            self._give(p, CROP_INDEX[v])
            self.queue.insert(0, {"player": p, "kind": "take", "gave": CROP_INDEX[v], "source": t.get("source")})
        elif k == "take":
            self._take(p, CROP_INDEX[v])
        elif k == "notary":
            i = next(i for i, e in enumerate(self.stores[p]) if e[0] == v)
            _, bid, _ = self.stores[p].pop(i)
            self.stock = add(self.stock, bid)
            self._gain_tile(p, v)
        elif k == "foreman":
            self._harvest(p, v)
        elif k == "lawyer":
            o, i = self._store_entry(v)
            _, bid, _ = self.stores[o].pop(i)
            self.counters[o] = add(self.counters[o], bid)
            self._gain_tile(p, v)
        elif k in ("bailiff", "census"):
            self.registry.remove(v)
            self._gain_tile(p, v)
        elif k == "replace":
            self._place(p, t["worker"], v)
        elif k == "pass":
            bit = B.BIT[v]
            up = bool(self._up[p] & bit)
            self._tiles[p] &= ~bit
            self._up[p] &= ~bit
            left = (p + 1) % self.num_players
            self.journal.append({"what": "pass", "player": p, "to": left, "code": v})
            self._gain_tile(left, v, up=up)
        elif k == "frost":
            self._up[p] &= ~B.BIT[v]
        elif k == "sale":
            assert ch.counters is not None
            self.registry.remove(v)
            self.counters[p] = sub(self.counters[p], ch.counters)
            self.stock = add(self.stock, ch.counters)
            self._gain_tile(p, v)
