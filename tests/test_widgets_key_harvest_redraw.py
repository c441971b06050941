"""What a Key Harvest board click redraws, counted on ipycanvas's shared canvas manager (issue #9, Speed).

A harvest flips one group: the board's tiles layer draws the pale side over those spaces only (nothing
erased, no icon drawn again), not all of your tiles; a new browser still gets the whole board, each
harvested tile as its up side under the same cover.
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
    assert drawn["clearRect"] == 0 and drawn["clip"] == 0, "the pale side goes over the tile: nothing is erased"
    cover_ids = {f"IPY_MODEL_{layer.canvas.model_id}" for layer in t.board.covers.layers}
    stamps = [args for _, name, args in rec.drawn[0] if name == "drawImage"]
    assert len(stamps) == len(flipped) and {a[0] for a in stamps} <= cover_ids, "one crop's cover copied per tile"
    assert len(rec.drawn[0]) < 20, "a copy and the code, not the cover's ~100 commands"
    assert drawn["fillText"] == len(flipped), "one code label per flipped tile: the others and the title stay"
    cover = [(name, args) for _, name, args in rec.drawn[0] if name not in ("set", "setTransform")]

    rec.clear()
    t.simulate_client_ready()                 # a browser that connects now has nothing drawn: all of it
    full = rec.commands(tiles, k=next(i for i, m in enumerate(rec.messages) if tiles.model_id in {c for c, _ in m}))
    assert full["clearRect"] == 1, "the layer is cleared once"
    assert full["fillText"] == len(after) + 1, "every tile's code and the title"
    redrawn = [(name, args) for m in rec.drawn for _, name, args in m if name not in ("set", "setTransform")]
    assert any(redrawn[i:i + len(cover)] == cover for i in range(len(redrawn))), \
        "a new browser's harvested tile is the up side under the very cover the harvest drew"
    drawn_on = [cid for m in rec.drawn for cid, _, _ in m]
    first_stamp = next(i for i, (_, name, _) in enumerate(x for m in rec.drawn for x in m) if name == "drawImage")
    assert {layer.canvas.model_id for layer in t.board.covers.layers} <= set(drawn_on[:first_stamp]), \
        "a new browser gets the covers drawn before the first tile copies one"


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
