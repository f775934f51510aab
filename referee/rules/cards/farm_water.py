"""The farm and water scoring cards of both games."""

from __future__ import annotations

from referee.rules.cards.card import CardScore, Printing, numbered, scoring_card, to_cells
from referee.rules.geometry import COLUMNS, NEIGHBOURS, ON_EDGE
from referee.rules.i18n import Text, _, ngettext, npgettext
from referee.rules.sheet import MapSheet
from referee.rules.terrain import FARM, MOUNTAIN, WATER


def _water(spaces: list[int]) -> Text:
    return npgettext("counted", "%(num)d water space", "%(num)d water spaces", len(spaces))


def _farms(spaces: list[int]) -> Text:
    return npgettext("counted", "%(num)d farm space", "%(num)d farm spaces", len(spaces))


@scoring_card("Canal Lake")
def canal_lake(sheet: MapSheet) -> CardScore:
    """Earn one reputation star for each water space adjacent to at least one
    farm space. Earn one reputation star for each farm space adjacent to at
    least one water space."""
    codes = sheet.codes
    water = [i for i in sheet.spaces_of(WATER) if any(codes[n] == FARM for n in NEIGHBOURS[i])]
    farms = [i for i in sheet.spaces_of(FARM) if any(codes[n] == WATER for n in NEIGHBOURS[i])]
    return CardScore(
        len(water) + len(farms),
        to_cells(water + farms),
        why=_("%(water)s beside farm and %(farms)s beside water.", water=_water(water), farms=_farms(farms)),
    )


@scoring_card("Mages Valley")
def mages_valley(sheet: MapSheet) -> CardScore:
    """Earn two reputation stars for each water space adjacent to a mountain
    space. Earn one reputation star for each farm space adjacent to a mountain
    space."""
    codes = sheet.codes
    water = [i for i in sheet.spaces_of(WATER) if any(codes[n] == MOUNTAIN for n in NEIGHBOURS[i])]
    farms = [i for i in sheet.spaces_of(FARM) if any(codes[n] == MOUNTAIN for n in NEIGHBOURS[i])]
    return CardScore(
        2 * len(water) + len(farms),
        to_cells(water + farms),
        why=_("%(water)s and %(farms)s beside a mountain.", water=_water(water), farms=_farms(farms)),
    )


@scoring_card("The Golden Granary")
def the_golden_granary(sheet: MapSheet) -> CardScore:
    """Earn one reputation star for each water space adjacent to a ruins
    space. Earn three reputation stars for each farm space on a ruins space."""
    ruins = sheet.ruins
    water = [i for i in sheet.spaces_of(WATER) if any(n in ruins for n in NEIGHBOURS[i])]
    farms = [i for i in sheet.spaces_of(FARM) if i in ruins]
    return CardScore(
        len(water) + 3 * len(farms),
        to_cells(water + farms),
        why=_("%(water)s beside ruins and %(farms)s on ruins.", water=_water(water), farms=_farms(farms)),
    )


@scoring_card("Shoreside Expanse")
def shoreside_expanse(sheet: MapSheet) -> CardScore:
    """Earn three reputation stars for each cluster of farm spaces not
    adjacent to a water space or the edge of the map. Earn three reputation
    stars for each cluster of water spaces not adjacent to a farm space or the
    edge of the map."""
    codes = sheet.codes

    def inland(code: str, other: str) -> list[frozenset[int]]:
        return [
            c
            for c in sheet.clusters(code)
            if not any(ON_EDGE[i] for i in c) and not any(codes[n] == other for n in sheet.border(c))
        ]

    farms = inland(FARM, WATER)
    waters = inland(WATER, FARM)
    return CardScore(
        3 * (len(farms) + len(waters)),
        to_cells(set().union(*farms, *waters)),
        why=_(
            "%(farms)s away from water and %(waters)s away from farms, none touching the edge.",
            farms=npgettext("counted", "%(num)d farm cluster", "%(num)d farm clusters", len(farms)),
            waters=npgettext("counted", "%(num)d water cluster", "%(num)d water clusters", len(waters)),
        ),
    )


@scoring_card("Craylund")
def craylund(sheet: MapSheet) -> CardScore:
    """Earn seven reputation stars for each cluster of farm spaces adjacent to
    three or more water spaces."""
    codes = sheet.codes
    scored = [c for c in sheet.clusters(FARM) if sum(codes[n] == WATER for n in sheet.border(c)) >= 3]
    return CardScore(
        7 * len(scored),
        to_cells(set().union(*scored)),
        why=ngettext(
            "%(num)d farm cluster beside three or more water spaces.",
            "%(num)d farm clusters beside three or more water spaces.",
            len(scored),
        ),
    )


@scoring_card("Clawsgrave Peaks")
def clawsgrave_peaks(sheet: MapSheet) -> CardScore:
    """Earn five reputation stars for each mountain space connected to a farm
    space by a cluster of water spaces."""
    codes = sheet.codes
    mountains: set[int] = set()
    links: set[int] = set()
    for cluster in sheet.clusters(WATER):
        border = sheet.border(cluster)
        if any(codes[n] == FARM for n in border):
            touching = {n for n in border if codes[n] == MOUNTAIN}
            if touching:
                mountains |= touching
                links |= cluster
    return CardScore(
        5 * len(mountains),
        to_cells(mountains | links),
        why=ngettext(
            "%(num)d mountain linked to a farm by water.",
            "%(num)d mountains linked to a farm by water.",
            len(mountains),
        ),
    )


@scoring_card("Ulem's Wallow")
def ulems_wallow(sheet: MapSheet) -> CardScore:
    """Earn four reputation stars for each water space adjacent to two or more
    farm spaces."""
    codes = sheet.codes
    water = [i for i in sheet.spaces_of(WATER) if sum(codes[n] == FARM for n in NEIGHBOURS[i]) >= 2]
    return CardScore(
        4 * len(water),
        to_cells(water),
        why=ngettext(
            "%(num)d water space beside two or more farm spaces.",
            "%(num)d water spaces beside two or more farm spaces.",
            len(water),
        ),
    )


def _even_columns(sheet: MapSheet) -> tuple[list[int], list[int]]:
    """The columns with as many farm as water spaces (at least one of each), and their spaces."""
    codes = sheet.codes
    cols = []
    for c, line in enumerate(COLUMNS):
        farms = sum(codes[i] == FARM for i in line)
        if farms and farms == sum(codes[i] == WATER for i in line):
            cols.append(c)
    return cols, [i for c in cols for i in COLUMNS[c] if codes[i] in (FARM, WATER)]


@scoring_card("Jorekburg")
def jorekburg(sheet: MapSheet) -> CardScore:
    """Earn four reputation stars for each column that contains an equal
    number of farm spaces and water spaces. There must be at least one of each."""
    cols, cells = _even_columns(sheet)
    return CardScore(
        4 * len(cols),
        to_cells(cells),
        tuple(("column", c) for c in cols),
        why=_("As many farm as water spaces in %(lines)s.", lines=numbered("column", cols))
        if cols
        else _("No column holds as many farm as water spaces, with at least one of each."),
    )


@scoring_card("Jorekburg", Printing.CZECH)
def jorekburg_czech(sheet: MapSheet) -> CardScore:
    """Získáš pět bodů pověsti za každý sloupec obsahující stejné množství polí
    s vodou i s farmou. Ve sloupci musí být alespoň jedno pole od obou typů.
    (The Czech printing, as "Vepřín": five stars a column, not four.)"""
    cols, cells = _even_columns(sheet)
    return CardScore(
        5 * len(cols),
        to_cells(cells),
        tuple(("column", c) for c in cols),
        why=_("As many farm as water spaces in %(lines)s.", lines=numbered("column", cols))
        if cols
        else _("No column holds as many farm as water spaces, with at least one of each."),
    )
