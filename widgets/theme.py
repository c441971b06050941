"""The look of every sheet: paper, printed grid, ink, a colour-blind-safe palette, fonts and page CSS.

Colours come from the Okabe–Ito palette (distinguishable with every common colour-vision
deficiency), and wherever a colour carries meaning the drawing adds a second cue: purple grapes
are filled discs, green grapes are rings; the purple castle flies a pennant, the green one a
swallowtail flag; yellow and grey cards are labelled in words.
"""

from __future__ import annotations

# Canvas pixels per CSS pixel: sheets are drawn at twice their on-screen size so they stay
# crisp on HiDPI screens (the browser scales them down on ordinary ones).
SCALE = 2

OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky": "#56B4E9",
    "green": "#009E73",   # bluish green
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",  # reddish purple
}

PAPER = "#FBF8EF"           # warm off-white sheet
PAPER_SHADE = "#F3EEDF"     # printed boxes (score column, reference strip)
GRID = "#A7B6C9"            # thin grey-blue printed grid
GRID_STRONG = "#6F829C"     # printed frame
PRINT = "#4F5F75"           # printed words and icons
INK = "#1B2340"             # the player's pencil
FAINT = "#8D97A8"           # previews: what a box would get now

GRAPE_PURPLE = "#A8508C"    # Okabe–Ito reddish purple, deepened to read as grapes on paper
GRAPE_PURPLE_EDGE = "#6E2A5A"
GRAPE_GREEN = OKABE_ITO["green"]

CARD_YELLOW = OKABE_ITO["yellow"]
CARD_GREY = "#C9C9C9"
CARD_EDGE = "#5A5A5A"

LEGAL = "rgba(86, 180, 233, 0.10)"       # sky: cells you may draw in
# ... and their thin outline: the soft fill alone is 238 grey on 248 paper, lost on a projector or in
# greyscale; this edge keeps >= 3:1 (WCAG) against the paper, the fill and the network tint.
LEGAL_EDGE = "#2C7BB6"
NETWORK = "rgba(230, 159, 0, 0.26)"      # orange: the network your round's farm reaches
NOW_RING = OKABE_ITO["vermillion"]       # the farm scored this round
PEEK_RING = OKABE_ITO["blue"]            # the farm you peeked at (dashed)
LAST_MOVE = OKABE_ITO["blue"]            # your move on the face-up card (undo-able)

FONT_PRINT = "Georgia, 'DejaVu Serif', 'Liberation Serif', serif"
FONT_INK = "'Trebuchet MS', 'Liberation Sans', 'DejaVu Sans', Arial, sans-serif"


def tint(colour: str, amount: float) -> str:
    """``colour`` mixed with paper white (amount 0: the colour, 1: paper)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    pr, pg, pb = (int(PAPER[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (p - c) * amount) for c, p in ((r, pr), (g, pg), (b, pb))]
    return "#{:02X}{:02X}{:02X}".format(*mix)


def font(size: float, family: str = FONT_PRINT, weight: str = "") -> str:
    """A canvas font string, e.g. font(14, FONT_INK, 'bold')."""
    return f"{weight + ' ' if weight else ''}{size:g}px {family}"


# Page CSS for the table's HTML parts (status, buttons, log, breakdown). Injected once per table
# through an HTML widget: Voila and JupyterLab both apply <style> in widget HTML.
CSS = f"""
<style>
.sk-table {{ font-family: {FONT_INK}; color: {INK}; gap: 8px; max-width: 1240px; }}
/* flex-wrap: on a narrow screen the panel goes under the sheet */
.sk-table .sk-main {{ gap: 14px; align-items: flex-start; flex-wrap: wrap; }}
/* beside the sheet when at least 372 px are left, under it otherwise (table_base.TABLE_CSS: screens) */
.sk-table .sk-side {{ gap: 6px; flex: 1 1 372px; min-width: 0; max-width: 680px; }}
.sk-table .sk-middle {{ gap: 14px; align-items: flex-start; flex-wrap: wrap; }}
.sk-table .sk-playcol {{ gap: 6px; width: 362px; max-width: 100%; }}
.sk-table .sk-end {{ min-width: min(372px, 100%); }}
.sk-table .sk-sheet {{ border-radius: 3px; box-shadow: 0 1px 4px rgba(40, 40, 60, 0.25); }}
/* min-height reserves three lines (1.45 × 17 px each, see .widget-html-content below), so a longer
   message or a refusal never moves the buttons under the pointer */
.sk-table .sk-status {{ font-size: 17px; line-height: 1.3; min-height: 86px; padding: 6px 10px; box-sizing: border-box;
  background: #EEF3F9; border-left: 4px solid {OKABE_ITO['blue']}; border-radius: 3px; }}
.sk-table .sk-status .sk-error {{ color: {OKABE_ITO['vermillion']}; font-weight: bold; }}
.sk-table .sk-status .sk-error::before {{ content: "⚠ "; }}
.sk-table .sk-info {{ font-size: 14px; color: {PRINT}; }}
.sk-table .sk-info b {{ color: {INK}; }}
.sk-table .sk-peekinfo {{ font-size: 14px; color: {OKABE_ITO['blue']}; min-height: 18px; }}
.sk-table .sk-row {{ gap: 6px; align-items: center; }}
.sk-table button.sk-next {{ font-weight: bold; }}
.sk-table .sk-code {{ font-family: 'DejaVu Sans Mono', monospace; font-size: 15px; font-weight: bold;
  letter-spacing: 0.5px; }}
.sk-table .sk-small {{ font-size: 13px; color: {PRINT}; }}
.sk-table .sk-log {{ font-size: 13px; line-height: 1.45; height: 104px; overflow-y: auto;
  background: {PAPER}; border: 1px solid #DDD6C4; border-radius: 3px; padding: 4px 10px; }}
.sk-table .sk-log .sk-log-round, .sk-table .sk-log .sk-log-end {{ font-weight: bold; color: {INK}; }}
.sk-table .sk-log .sk-log-score {{ color: {OKABE_ITO['vermillion']}; font-weight: bold; }}
/* ipywidgets gives HTML content the height of a widget row; text blocks want normal lines */
.sk-table .sk-log .widget-html-content, .sk-table .sk-status .widget-html-content,
.sk-table .sk-end .widget-html-content, .sk-live .widget-html-content {{ line-height: 1.45; }}
.sk-table .sk-log div {{ padding: 1px 0; }}
.sk-table .sk-end {{ background: {PAPER}; border: 1px solid #DDD6C4; border-radius: 4px; padding: 8px 12px; }}
.sk-table .sk-end h3 {{ margin: 2px 0 4px 0; font-family: {FONT_PRINT}; }}
.sk-table .sk-breakdown table {{ border-collapse: collapse; font-size: 13px; margin: 4px 0; line-height: 1.3; }}
.sk-table .sk-breakdown th, .sk-table .sk-breakdown td {{ border: 1px solid {GRID}; padding: 2px 7px;
  text-align: center; white-space: nowrap; }}
.sk-table .sk-breakdown td.sk-name {{ text-align: left; }}
.sk-table .sk-breakdown th {{ background: {PAPER_SHADE}; font-weight: normal; color: {PRINT}; }}
.sk-table .sk-breakdown td.sk-total {{ font-weight: bold; }}
.sk-table .sk-breakdown tr.sk-me td {{ background: #FFF6D8; }}
.sk-table .sk-breakdown .sk-zero {{ color: {OKABE_ITO['vermillion']}; }}
/* The end box never runs off a phone: its rows wrap (the share words go under Play again), and a breakdown wider
   than the box scrolls sideways inside it, a shadow at the right edge saying there is more (the paper gradient,
   attached to the content, covers the shadow once the end is reached) */
.sk-table .sk-end {{ max-width: 100%; box-sizing: border-box; }}
.sk-table .sk-end > * {{ min-width: 0; max-width: 100%; }}
.sk-table .sk-end .sk-row {{ flex-wrap: wrap; }}
.sk-table .sk-end .sk-row > * {{ min-width: 0; flex: 0 1 auto; }}
.sk-table .sk-breakdown {{ overflow-x: auto; background-color: {PAPER};
  background-image: linear-gradient(to left, {PAPER} 40%, rgba(251, 248, 239, 0)),
    radial-gradient(farthest-side at 100% 50%, rgba(60, 50, 30, 0.4), rgba(60, 50, 30, 0));
  background-position: right center, right center; background-size: 30px 100%, 14px 100%;
  background-repeat: no-repeat; background-attachment: local, scroll; }}
.sk-table a, .sk-live a {{ color: {OKABE_ITO['blue']}; text-decoration: underline; }}
.sk-table a.sk-download {{ font-size: 14px; }}
.sk-table .sk-titles {{ font-size: 13px; margin-top: 4px; }}
.sk-table .sk-titles summary {{ cursor: pointer; color: {OKABE_ITO['blue']}; }}
.sk-table .sk-titles td {{ padding: 1px 8px 1px 0; }}
.sk-table .sk-titles tr.sk-me td {{ background: #FFF6D8; }}
.sk-review {{ border-collapse: collapse; font-size: 13px; margin: 6px 0; }}
.sk-review th, .sk-review td {{ border-bottom: 1px solid {GRID}; padding: 3px 10px; text-align: left; }}
.sk-review th {{ color: {PRINT}; font-weight: normal; }}
</style>
"""
