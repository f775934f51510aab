"""The village scoring cards of both games."""

from __future__ import annotations

from referee.rules.cards.card import CardScore, scoring_card, to_cells
from referee.rules.geometry import SIZE, cell, where
from referee.rules.i18n import Text, _, ngettext, npgettext
from referee.rules.sheet import Cluster, MapSheet
from referee.rules.terrain import EMPTY, MOUNTAIN, TERRAIN_TYPES, VILLAGE


def _first(cluster: Cluster) -> Text:
    """Name a cluster by its top-left space, the way a player would point at it."""
    return where(*cell(min(cluster)))


@scoring_card("Wildholds")
def wildholds(sheet: MapSheet) -> CardScore:
    """Earn eight reputation stars for each cluster of six or more village spaces."""
    scored = [c for c in sheet.clusters(VILLAGE) if len(c) >= 6]
    return CardScore(
        8 * len(scored),
        to_cells(set().union(*scored)),
        why=ngettext(
            "%(num)d village cluster of six or more.", "%(num)d village clusters of six or more.", len(scored)
        ),
    )


@scoring_card("Great City")
def great_city(sheet: MapSheet) -> CardScore:
    """Earn one reputation star for each village space in the largest cluster
    of village spaces that is not adjacent to a mountain space."""
    codes = sheet.codes
    away = [c for c in sheet.clusters(VILLAGE) if not any(codes[n] == MOUNTAIN for n in sheet.border(c))]
    if not away:
        return CardScore(0, why=_("No village cluster stays clear of the mountains."))
    best = max(away, key=len)
    return CardScore(
        len(best),
        to_cells(best),
        why=ngettext(
            "The largest village cluster clear of mountains has %(num)d space.",
            "The largest village cluster clear of mountains has %(num)d spaces.",
            len(best),
        ),
    )


@scoring_card("Greengold Plains")
def greengold_plains(sheet: MapSheet) -> CardScore:
    """Earn three reputation stars for each cluster of village spaces that is
    adjacent to three or more different terrain types."""
    codes = sheet.codes
    scored = [
        c for c in sheet.clusters(VILLAGE) if len({codes[n] for n in sheet.border(c)} & TERRAIN_TYPES) >= 3
    ]
    return CardScore(
        3 * len(scored),
        to_cells(set().union(*scored)),
        why=ngettext(
            "%(num)d village cluster beside three or more terrain types.",
            "%(num)d village clusters beside three or more terrain types.",
            len(scored),
        ),
    )


@scoring_card("Shieldgate")
def shieldgate(sheet: MapSheet) -> CardScore:
    """Earn two reputation stars for each village space in the second largest
    cluster of village spaces. If there are multiple largest clusters, score
    one of the largest."""
    ranked = sorted(sheet.clusters(VILLAGE), key=len, reverse=True)
    if len(ranked) < 2:
        return CardScore(0, why=_("There is no second village cluster."))
    second = ranked[1]
    if len(ranked[0]) == len(second):
        why = ngettext(
            "Two or more clusters tie for largest at %(num)d space; one of them scores.",
            "Two or more clusters tie for largest at %(num)d spaces; one of them scores.",
            len(second),
        )
    else:
        why = ngettext(
            "The second largest village cluster has %(num)d space.",
            "The second largest village cluster has %(num)d spaces.",
            len(second),
        )
    return CardScore(2 * len(second), to_cells(second), why=why)


def _has_line(cluster: Cluster, length: int = 4) -> bool:
    for i in cluster:
        r, c = cell(i)
        if c + length <= SIZE and all(i + k in cluster for k in range(length)):
            return True
        if r + length <= SIZE and all(i + k * SIZE in cluster for k in range(length)):
            return True
    return False


def _has_square(cluster: Cluster) -> bool:
    for i in cluster:
        r, c = cell(i)
        if r + 1 < SIZE and c + 1 < SIZE and {i + 1, i + SIZE, i + SIZE + 1} <= cluster:
            return True
    return False


@scoring_card("Traylo Monastery")
def traylo_monastery(sheet: MapSheet) -> CardScore:
    """Earn seven reputation stars for each cluster of village spaces that
    contains four spaces in a 4x1 or 1x4 rectangle."""
    scored = [c for c in sheet.clusters(VILLAGE) if _has_line(c)]
    return CardScore(
        7 * len(scored),
        to_cells(set().union(*scored)),
        why=ngettext(
            "%(num)d village cluster with four spaces in a straight line.",
            "%(num)d village clusters with four spaces in a straight line.",
            len(scored),
        ),
    )


@scoring_card("Gnomish Colony")
def gnomish_colony(sheet: MapSheet) -> CardScore:
    """Earn six reputation stars for each cluster of village spaces that
    contains four spaces in a 2x2 square."""
    scored = [c for c in sheet.clusters(VILLAGE) if _has_square(c)]
    return CardScore(
        6 * len(scored),
        to_cells(set().union(*scored)),
        why=ngettext(
            "%(num)d village cluster with a 2x2 square.",
            "%(num)d village clusters with a 2x2 square.",
            len(scored),
        ),
    )


@scoring_card("Outer Enclave")
def outer_enclave(sheet: MapSheet) -> CardScore:
    """Choose a cluster of village spaces and earn one reputation star for
    each empty space adjacent to that cluster."""
    codes = sheet.codes
    best: Cluster | None = None
    best_empty: set[int] = set()
    for cluster in sheet.clusters(VILLAGE):
        empty = {n for n in sheet.border(cluster) if codes[n] == EMPTY}
        if best is None or len(empty) > len(best_empty):
            best, best_empty = cluster, empty
    if best is None:
        return CardScore(0, why=_("There is no village cluster to choose."))
    return CardScore(
        len(best_empty),
        to_cells(best_empty),
        why=ngettext(
            "Best choice: the village cluster at %(space)s, with %(num)d empty space beside it.",
            "Best choice: the village cluster at %(space)s, with %(num)d empty spaces beside it.",
            len(best_empty),
            space=_first(best),
        ),
    )


@scoring_card("Caravansary")
def caravansary(sheet: MapSheet) -> CardScore:
    """Choose a cluster of village spaces and earn one reputation star for
    each row and column that contains a space from that cluster."""
    best: Cluster | None = None
    best_rows: set[int] = set()
    best_cols: set[int] = set()
    for cluster in sheet.clusters(VILLAGE):
        rows = {i // SIZE for i in cluster}
        cols = {i % SIZE for i in cluster}
        if best is None or len(rows) + len(cols) > len(best_rows) + len(best_cols):
            best, best_rows, best_cols = cluster, rows, cols
    if best is None:
        return CardScore(0, why=_("There is no village cluster to choose."))
    return CardScore(
        len(best_rows) + len(best_cols),
        to_cells(best),
        tuple([("row", r) for r in sorted(best_rows)] + [("column", c) for c in sorted(best_cols)]),
        why=_(
            "Best choice: the village cluster at %(space)s, spanning %(rows)s and %(columns)s.",
            space=_first(best),
            rows=npgettext("spanning", "%(num)d row", "%(num)d rows", len(best_rows)),
            columns=npgettext("spanning", "%(num)d column", "%(num)d columns", len(best_cols)),
        ),
    )
