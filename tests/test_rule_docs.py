"""The rules live in docs/<game>.md, and every citation of them names a section that exists.

A citation is ``docs/<game>.md`` then a section sign and a heading of that doc (more sections may follow,
each with its own sign). Each test of the rules tests (``test_*_rules.py``, ``test_rule_cases.py``, the
effect and scripted tests) cites in its docstring a section under the doc's ``## The rules`` heading — or
the doc's title (credits), or docs/architecture.md (the game protocol every game keeps). The docs' own links
to ``#anchors`` reach a heading (GitHub's anchor for it). This file is the one place that writes the sign
without citing anything.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("avenue", "kingdom_maps", "key_harvest")
DOC_NAME = re.compile(r"(?:(docs/)|(?<![/\w]))(avenue|kingdom_maps|key_harvest)\.md")  # docs/x.md, or a bare x.md
RULES_TESTS = sorted({*ROOT.glob("tests/test_*_rules.py"), ROOT / "tests" / "test_rule_cases.py",
                      ROOT / "tests" / "test_key_harvest_effects.py", *ROOT.glob("tests/test_*_scripted.py")})


def headings(text: str) -> list[tuple[int, str]]:
    """(level, text) of every Markdown heading outside fenced code blocks."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"(#{1,6}) (.+?)\s*$", line)):
            out.append((len(m.group(1)), m.group(2)))
    return out


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.lower().replace("`", ""))
    return text.replace(" ", "-")


@cache
def sections(game: str) -> tuple[set[str], set[str]]:
    """(every heading of docs/<game>.md, the headings under its ``## The rules`` and its title)."""
    allh, rules, inside = set(), set(), False
    for level, text in headings((ROOT / "docs" / f"{game}.md").read_text("utf-8")):
        allh.add(text)
        if level == 2:
            inside = text == "The rules"
        elif inside or level == 1:
            rules.add(text)
    return allh, rules


def cited(text: str, own: str | None = None) -> list[tuple[int, str, str]]:
    """(line, game, section text as written) for each § in ``text``: the game is the last doc named within the
    400 characters before it (``own``, the doc being read, when none is named)."""
    out = []
    for m in re.finditer("§", text):
        named = list(DOC_NAME.finditer(text, max(0, m.start() - 400), m.start()))
        game = named[-1].group(2) if named else own
        out.append((text.count("\n", 0, m.start()) + 1, game or "", text[m.end():m.end() + 80]))
    return out


def resolve(game: str, after: str) -> str | None:
    """The heading of docs/<game>.md that the text after § starts with (the longest one), or None."""
    best = None
    for h in sections(game)[0]:
        if after.startswith(h) and (len(after) == len(h) or not after[len(h)].isalnum()):
            best = h if best is None or len(h) > len(best) else best
    return best


def citing_files() -> list[Path]:
    files = [p for d in ("sheetkit", "widgets", "tests", "benchmarks") for p in (ROOT / d).rglob("*.py")]
    return sorted(set(files) - {Path(__file__).resolve()}) + [ROOT / "docs" / f"{g}.md" for g in GAMES]


@pytest.mark.parametrize("game", GAMES)
def test_each_game_doc_holds_its_rules_in_sections(game: str) -> None:
    """docs/<game>.md has a ``## The rules`` part of many sections, every heading unique (its anchor too), and
    every ``(#anchor)`` link in the doc reaches a heading."""
    text = (ROOT / "docs" / f"{game}.md").read_text("utf-8")
    rules = sections(game)[1]
    assert len(rules) >= 12, sorted(rules)
    names = [h for _, h in headings(text)]
    assert len(names) == len(set(names)) and len({slug(h) for h in names}) == len(names)
    anchors = {slug(h) for h in names}
    broken = sorted(set(re.findall(r"\]\(#([^)]+)\)", text)) - anchors)
    assert not broken, f"links to missing anchors in docs/{game}.md: {broken}"


def test_every_cited_section_exists() -> None:
    """Every § in the code, the tests and the game docs names a doc and a heading of it."""
    bad = []
    count = 0
    for path in citing_files():
        own = path.stem if path.suffix == ".md" else None
        text = path.read_text("utf-8")
        for line, game, after in cited(text, own):
            where = f"{path.relative_to(ROOT)}:{line}"
            if game not in GAMES:
                bad.append(f"{where}: § with no docs/<game>.md before it: §{after[:40]}")
            elif resolve(game, after) is None:
                bad.append(f"{where}: docs/{game}.md has no section §{after[:40]}")
            count += 1
    assert count > 200 and not bad, "\n".join(bad)


def test_code_and_tests_cite_the_docs_by_their_path() -> None:
    """A citation in code or tests says ``docs/<game>.md`` — never a bare ``<game>.md`` a reader could take
    for some other file."""
    bad = []
    for path in citing_files():
        if path.suffix != ".py":
            continue
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for m in DOC_NAME.finditer(line):
                if not m.group(1):
                    bad.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:90]}")
    assert not bad, "\n".join(bad)


def test_rules_tests_cite_a_rules_section() -> None:
    """GUIDE: a rules test cites the rule it checks — its docstring names a section under ``## The rules``."""
    bad = []
    for path in RULES_TESTS:
        tree = ast.parse(path.read_text("utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                doc = ast.get_docstring(node) or ""
                found = [(g, resolve(g, after)) for _, g, after in cited(doc) if g in GAMES]
                if not any(h in sections(g)[1] for g, h in found) and "docs/architecture.md" not in doc:
                    bad.append(f"{path.relative_to(ROOT)}::{node.name}")
    assert len(RULES_TESTS) >= 8 and not bad, "rules tests citing no rules section:\n" + "\n".join(bad)


def test_the_citation_reader_catches_what_it_must() -> None:
    """The checks above can fail: a missing section, a § with no doc, a bare doc name."""
    assert resolve("avenue", "Scoring farms — rising rule") == "Scoring farms"
    assert resolve("avenue", "Scoring farmsteads") is None and resolve("avenue", "Components") == "Components"
    assert resolve("key_harvest", "Worker actions") == "Worker actions"
    assert resolve("key_harvest", "Workers —") == "Workers"
    assert [g for _, g, _ in cited("docs/avenue.md §Castles, §Final score; docs/key_harvest.md §Setup")] == [
        "avenue", "avenue", "key_harvest"]
    assert cited("x §Setup")[0][1] == "" and cited("x §Setup", own="avenue")[0][1] == "avenue"
    assert slug("The default layout: \"Hillside\"") == "the-default-layout-hillside"
    assert slug("Title table (\"par\")") == "title-table-par"
