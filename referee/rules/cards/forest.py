"""The forest scoring cards of both games."""

from __future__ import annotations

from referee.rules.cards.card import CardScore, Printing, numbered, scoring_card, to_cells
from referee.rules.geometry import COLUMNS, NEIGHBOURS, ON_EDGE, ROWS
from referee.rules.i18n import _, ngettext, npgettext
from referee.rules.sheet import MapSheet
from referee.rules.terrain import FOREST, MOUNTAIN, VILLAGE


@scoring_card("Sentinel Wood")
def sentinel_wood(sheet: MapSheet) -> CardScore:
    """Earn one reputation star for each forest space adjacent to the edge of the map."""
    spaces = [i for i in sheet.spaces_of(FOREST) if ON_EDGE[i]]
    return CardScore(
        len(spaces),
        to_cells(spaces),
        why=ngettext(
            "%(num)d forest space on the edge of the map.",
            "%(num)d forest spaces on the edge of the map.",
            len(spaces),
        ),
    )


@scoring_card("Greenbough")
def greenbough(sheet: MapSheet) -> CardScore:
    """Earn one reputation star for each row and column with at least one
    forest space. The same forest space may be scored in a row and a column."""
    codes = sheet.codes
    rows = [r for r, line in enumerate(ROWS) if any(codes[i] == FOREST for i in line)]
    cols = [c for c, line in enumerate(COLUMNS) if any(codes[i] == FOREST for i in line)]
    lines = tuple([("row", r) for r in rows] + [("column", c) for c in cols])
    return CardScore(
        len(rows) + len(cols),
        to_cells(sheet.spaces_of(FOREST)),
        lines,
        why=_(
            "Forest in %(rows)s and %(columns)s.",
            rows=npgettext("forest in", "%(num)d row", "%(num)d rows", len(rows)),
            columns=npgettext("forest in", "%(num)d column", "%(num)d columns", len(cols)),
        ),
    )


@scoring_card("Treetower")
def treetower(sheet: MapSheet) -> CardScore:
    """Earn one reputation star for each forest space surrounded on all four
    sides by filled spaces or the edge of the map."""
    filled = sheet.filled
    spaces = [i for i in sheet.spaces_of(FOREST) if all(filled[n] for n in NEIGHBOURS[i])]
    return CardScore(
        len(spaces),
        to_cells(spaces),
        why=ngettext(
            "%(num)d forest space with no empty space beside it.",
            "%(num)d forest spaces with no empty space beside them.",
            len(spaces),
        ),
    )


@scoring_card("Stoneside Forest")
def stoneside_forest(sheet: MapSheet) -> CardScore:
    """Earn three reputation stars for each mountain space connected to
    another mountain space by a cluster of forest spaces."""
    codes = sheet.codes
    mountains: set[int] = set()
    links: set[int] = set()
    for cluster in sheet.clusters(FOREST):
        touching = {n for n in sheet.border(cluster) if codes[n] == MOUNTAIN}
        if len(touching) >= 2:
            mountains |= touching
            links |= cluster
    return CardScore(
        3 * len(mountains),
        to_cells(mountains | links),
        why=ngettext(
            "%(num)d mountain linked to another mountain by forest.",
            "%(num)d mountains linked to another mountain by forest.",
            len(mountains),
        ),
    )


@scoring_card("Faunlost Thicket")
def faunlost_thicket(sheet: MapSheet) -> CardScore:
    """Earn two reputation stars for each forest space in the longest unbroken
    column of forest spaces."""
    best: list[int] = []
    for col in COLUMNS:
        run: list[int] = []
        for i in col:
            if sheet.codes[i] == FOREST:
                run.append(i)
                if len(run) > len(best):
                    best = list(run)
            else:
                run = []
    return CardScore(
        2 * len(best),
        to_cells(best),
        why=ngettext(
            "The longest unbroken column of forest is %(num)d space long.",
            "The longest unbroken column of forest is %(num)d spaces long.",
            len(best),
        ),
    )


@scoring_card("Heart of the Forest")
def heart_of_the_forest(sheet: MapSheet) -> CardScore:
    """Earn two reputation stars for each forest space surrounded on all four
    sides by forest spaces or the edge of the map."""
    codes = sheet.codes
    spaces = [i for i in sheet.spaces_of(FOREST) if all(codes[n] == FOREST for n in NEIGHBOURS[i])]
    return CardScore(
        2 * len(spaces),
        to_cells(spaces),
        why=ngettext(
            "%(num)d forest space with only forest or the edge beside it.",
            "%(num)d forest spaces with only forest or the edge beside them.",
            len(spaces),
        ),
    )


@scoring_card("Deepwood")
def deepwood(sheet: MapSheet) -> CardScore:
    """Earn six reputation stars for each cluster of five or more forest
    spaces that is not adjacent to any village spaces."""
    codes = sheet.codes
    scored = [
        c
        for c in sheet.clusters(FOREST)
        if len(c) >= 5 and not any(codes[n] == VILLAGE for n in sheet.border(c))
    ]
    return CardScore(
        6 * len(scored),
        to_cells(set().union(*scored)),
        why=ngettext(
            "%(num)d forest cluster of five or more with no village beside it.",
            "%(num)d forest clusters of five or more with no village beside them.",
            len(scored),
        ),
    )


@scoring_card("Deepwood", Printing.CZECH)
def deepwood_czech(sheet: MapSheet) -> CardScore:
    """Získáš šest bodů pověsti za každé území polí s lesem, které nesousedí
    s polem s vesnicí. (The Czech printing: "Earn six reputation stars for each
    cluster of forest spaces that is not adjacent to a village space", with no
    "five or more".)"""
    codes = sheet.codes
    scored = [c for c in sheet.clusters(FOREST) if not any(codes[n] == VILLAGE for n in sheet.border(c))]
    return CardScore(
        6 * len(scored),
        to_cells(set().union(*scored)),
        why=ngettext(
            "%(num)d forest cluster with no village beside it.",
            "%(num)d forest clusters with no village beside them.",
            len(scored),
        ),
    )


@scoring_card("Sleepy Valley")
def sleepy_valley(sheet: MapSheet) -> CardScore:
    """Earn four reputation stars for each row that contains three or more
    forest spaces."""
    codes = sheet.codes
    rows = [r for r, line in enumerate(ROWS) if sum(codes[i] == FOREST for i in line) >= 3]
    cells = [i for r in rows for i in ROWS[r] if codes[i] == FOREST]
    return CardScore(
        4 * len(rows),
        to_cells(cells),
        tuple(("row", r) for r in rows),
        why=_("Three or more forest spaces in %(lines)s.", lines=numbered("row", rows))
        if rows
        else _("No row holds three or more forest spaces."),
    )
