"""What a Key Harvest board click redraws, counted on ipycanvas's shared canvas manager (issue #9, Speed).

A harvest flips one group: the board's tiles layer must redraw those spaces only (each erased inside
its hex, then drawn again), not all of your tiles; a new browser still gets the whole board.
"""

from __future__ import annotations

from canvas_recorder import Recorder
from sheetkit.widgets import KeyHarvestTable

CODE = "KH-0000-0001"


def test_a_harvest_redraws_only_the_spaces_it_flipped_and_a_new_browser_gets_them_all(monkeypatch):
    rec = Recorder(monkeypatch)
    t = KeyHarvestTable(code=CODE)
    t.simulate_client_ready()
    tiles = t.board.canvas["tiles"].canvas
    before = dict(t.state.boards[0])
    rec.clear()
    t.click_space(next(c for c, side in before.items() if side == "up"))
    after = dict(t.state.boards[0])
    flipped = {c for c in after if after[c] != before.get(c)}
    assert flipped and len(flipped) < len(after), "this deal's first harvest flips a group, not the whole board"
    assert rec.count() == 1, "a harvest is one canvas message"
    drawn = rec.commands(tiles)
    assert drawn["clearRect"] == len(flipped), "each flipped space is erased, and nothing else"
    assert drawn["fillText"] == len(flipped), "one code label per redrawn tile: the others and the title stay"

    rec.clear()
    t.simulate_client_ready()                 # a browser that connects now has nothing drawn: all of it
    full = rec.commands(tiles, k=next(i for i, m in enumerate(rec.messages) if tiles.model_id in {c for c, _ in m}))
    assert full["clearRect"] == 1 and full["fillText"] == len(after) + 1, "every tile and the title"


def test_choosing_a_registry_tile_redraws_the_rings_only(monkeypatch):
    from sheetkit.games.key_harvest import Bid

    rec = Recorder(monkeypatch)
    t = KeyHarvestTable(code=CODE)
    t.simulate_client_ready()
    biddable = sorted({a.code for a in t.state.legal_actions(0) if isinstance(a, Bid)})
    assert len(biddable) >= 2, "this deal opens with tiles to bid for"
    t.click_town("registry", biddable[0])
    rec.clear()
    t.click_town("registry", biddable[1])     # change your mind: the solid ring moves
    lit = t.town.canvas["lit"].canvas
    assert rec.count() == 1 and rec.canvases() == {lit.model_id}, "the town's tiles, townsfolk and stores stay"
    assert rec.commands(lit)["strokePolygon"] == len(biddable), "one ring per tile you may bid for, no more"
    assert "Your bid for " + biddable[1] in t.status.value
