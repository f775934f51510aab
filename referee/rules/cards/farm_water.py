"""The farm and water scoring cards of both games."""

from __future__ import annotations

from referee.rules.cards.card import CardScore, numbered, scoring_card, to_cells
from referee.rules.geometry import COLUMNS, NEIGHBOURS, ON_EDGE
from referee.rules.sheet import MapSheet
from referee.rules.terrain import FARM, MOUNTAIN, WATER
from referee.rules.words import plural


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
        why=f"{plural(len(water), 'water space')} beside farm and "
        f"{plural(len(farms), 'farm space')} beside water.",
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
        why=f"{plural(len(water), 'water space')} and {plural(len(farms), 'farm space')} beside a mountain.",
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
        why=f"{plural(len(water), 'water space')} beside ruins and "
        f"{plural(len(farms), 'farm space')} on ruins.",
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
        why=f"{plural(len(farms), 'farm cluster')} away from water and "
        f"{plural(len(waters), 'water cluster')} away from farms, none touching the edge.",
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
        why=f"{plural(len(scored), 'farm cluster')} beside three or more water spaces.",
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
        why=f"{plural(len(mountains), 'mountain')} linked to a farm by water.",
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
        why=f"{plural(len(water), 'water space')} beside two or more farm spaces.",
    )


@scoring_card("Jorekburg")
def jorekburg(sheet: MapSheet) -> CardScore:
    """Earn four reputation stars for each column that contains an equal
    number of farm spaces and water spaces. There must be at least one of each."""
    codes = sheet.codes
    cols = []
    for c, line in enumerate(COLUMNS):
        farms = sum(codes[i] == FARM for i in line)
        if farms and farms == sum(codes[i] == WATER for i in line):
            cols.append(c)
    cells = [i for c in cols for i in COLUMNS[c] if codes[i] in (FARM, WATER)]
    return CardScore(
        4 * len(cols),
        to_cells(cells),
        tuple(("column", c) for c in cols),
        why=f"As many farm as water spaces in {numbered('column', cols)}.",
    )
