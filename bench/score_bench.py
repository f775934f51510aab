"""Time to score all 32 scoring cards on one map, over many random maps.

    python bench/score_bench.py [--maps 10000] [--seed 1]

Prints the median, 95th percentile and worst time per map (target: median
1 ms or less). Maps are random draws over the map codes on random sides,
with the printed mountains and wastelands kept, so clusters of every size
appear. Each map is a fresh MapSheet, so shared work (clusters) is timed too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from referee.rules.cards import all_cards
from referee.rules.season import monster_penalty, surrounded_mountains
from referee.rules.sheet import MapSheet, side_named
from referee.rules.terrain import DRAWN, EMPTY

WEIGHTED = [EMPTY] * 4 + sorted(DRAWN - {"X"}) * 2 + ["X"]


def random_map(rng: random.Random) -> tuple[str, str]:
    side = rng.choice("ABCD")
    blank = MapSheet.blank(side)
    density = rng.random()
    codes = [
        c if c != EMPTY else (rng.choice(WEIGHTED) if rng.random() < density else EMPTY) for c in blank.codes
    ]
    return side, "".join(codes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--maps", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cards = all_cards()
    maps = [random_map(rng) for _ in range(args.maps)]
    times = []
    for side, codes in maps:
        start = time.perf_counter()
        sheet = MapSheet(side_named(side), codes)
        for card in cards:
            card.score(sheet)
        times.append(time.perf_counter() - start)
    times.sort()
    ms = [t * 1000 for t in times]
    print(f"maps: {len(maps)}, cards per map: {len(cards)}")
    print(f"median: {statistics.median(ms):.3f} ms per map (target <= 1 ms)")
    print(f"p95:    {ms[int(0.95 * len(ms))]:.3f} ms")
    print(f"worst:  {ms[-1]:.3f} ms")
    start = time.perf_counter()
    for side, codes in maps[:1000]:
        sheet = MapSheet(side_named(side), codes)
        monster_penalty(sheet)
        surrounded_mountains(sheet)
    print(f"monster penalty + surrounded mountains: {(time.perf_counter() - start):.3f} ms per map")


if __name__ == "__main__":
    main()
