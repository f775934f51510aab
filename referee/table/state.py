"""Where a table stands: its deal, which season is on, who sits where.

A table row stores a setup and a number of reveals; ``Table`` puts the deal
and the position beside it, and answers what the sheet pages ask: which
season is on, whether a season has ended, which ambush cards are out. Finding
a table by its join code refuses a code nobody holds (404) and a table left
idle past its lifetime (410), and ``purge_expired`` deletes such tables for good.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlalchemy.orm import Session

from referee.rules import data, deck, heroes, terrain
from referee.rules.cards import Printing, ScoringCard, card_named, differs
from referee.rules.i18n import _, ngettext
from referee.store import tables as stored
from referee.store.models import GameTable, Seat, utcnow
from referee.table.deal import SEASONS, dealt, map_side_of, printing_of, setup_of
from referee.table.errors import NOT_FOUND, NoSuchTable, Refused, TableExpired


def find_table(session: Session, code: str, lifetime: timedelta) -> GameTable:
    """The table with this join code (as typed), unless none has it or it expired."""
    table = stored.find_table(session, code)
    if table is None:
        raise no_such_table(code)
    if table.updated_at < idle_since(lifetime):
        raise expired(table.code, lifetime)
    return table


def idle_since(lifetime: timedelta) -> datetime:
    """The expiry rule: a table last touched before this moment has expired."""
    return utcnow() - lifetime


def expired(code: str, lifetime: timedelta) -> TableExpired:
    """The refusal for a table left idle past its lifetime."""
    return TableExpired(
        ngettext(
            "Table %(code)s expired after %(num)d day without a reveal; start a new one.",
            "Table %(code)s expired after %(num)d days without a reveal; start a new one.",
            lifetime.days,
            code=code,
        )
    )


def no_such_table(code: str) -> NoSuchTable:
    """The refusal for a code no table holds, naming the code as it was read."""
    return NoSuchTable(
        _("No table has the code %(code)s; check it with the host.", code=stored.normalise_code(code)[:16])
    )


def open_table(session: Session, code: str, lifetime: timedelta) -> Table:
    """The table with this join code and where it stands."""
    return Table.of(find_table(session, code, lifetime))


@dataclass
class Table:
    """A table's deal and where it stands, as the sheet pages need them."""

    table: GameTable
    setup: deck.Setup
    deal: deck.Deal
    position: deck.Position
    side: data.MapSide

    @classmethod
    def of(cls, table: GameTable) -> Table:
        """The table as it stands after its stored reveals."""
        setup = setup_of(table)
        game = dealt(setup)
        return cls(table, setup, game, game.position(table.taps), map_side_of(table))

    @property
    def heroes(self) -> bool:
        """Whether hero cards are in the explore deck (a Heroes or combined game)."""
        return bool(self.setup.heroes)

    @property
    def ambush_effects(self) -> bool:
        """Whether an ambush card of this game does more than its monster: the
        Heroes ambushes (the Dragon pays coins, the Gorgon and the Troll destroy,
        the zombies spread). Hero cards or not: a combined game may leave the
        hero cards out and keep these ambushes."""
        return bool(set(self.setup.ambushes) & set(deck.edition_ambushes("heroes")))

    @property
    def destroys(self) -> bool:
        """Whether spaces can be destroyed in this game: heroes destroy the
        monsters they attack, the Gorgon and the Giant Troll destroy spaces.
        A base game has no destroyed spaces."""
        return self.heroes or bool({heroes.GORGON_GAZE, heroes.GIANT_TROLL_RAVAGE} & set(self.setup.ambushes))

    @property
    def drawn(self) -> frozenset[str]:
        """The map codes a player can draw in this game: a hero only with
        hero cards in the deck, a destroyed space only where something
        destroys. What the photo reader may read on an empty space."""
        codes = set(terrain.DRAWN)
        if not self.heroes:
            codes.discard(terrain.HERO)
        if not self.destroys:
            codes.discard(terrain.DESTROYED)
        return frozenset(codes)

    @property
    def solo(self) -> bool:
        """Whether one player plays the solo rules."""
        return self.setup.solo

    @property
    def seats(self) -> list[Seat]:
        """The seats in seat order (clockwise)."""
        return list(self.table.seats)

    def seat(self, number: int) -> Seat:
        """The seat numbered from 1 in seat order."""
        for seat in self.table.seats:
            if seat.order == number - 1:
                return seat
        raise Refused(
            NOT_FOUND,
            _(
                "Table %(code)s has no seat %(number)d.",
                code=self.table.code,
                number=number,
            ),
        )

    def season_index(self, name: str) -> int:
        """0 (spring) to 3 (winter) for a season as an address names it."""
        if name not in SEASONS:
            raise Refused(NOT_FOUND, _("A season is spring, summer, fall or winter."))
        return SEASONS.index(name)

    @property
    def current(self) -> int:
        """The season being played (or just ended)."""
        return self.position.season_index

    def ended(self, s: int) -> bool:
        """Whether season ``s`` has reached its time threshold."""
        p = self.position
        return p.season_index > s or (p.season_index == s and p.season_over)

    def season_card(self, s: int) -> deck.SeasonDeal:
        """Season ``s`` as dealt: its card, time threshold, edicts and turns."""
        return self.deal.seasons[s]

    @property
    def printing(self) -> Printing:
        """The printing of the scoring cards the table plays by (English unless the host chose)."""
        return printing_of(self.table)

    def edict_cards(self) -> dict[str, ScoringCard]:
        """The scoring card under each edict, A to D, as the table's printing scores it."""
        return {letter: card_named(name, self.printing) for letter, name in self.deal.edicts.items()}

    def printing_differs(self) -> list[str]:
        """The table's edict cards that its printing scores differently from the English one."""
        changed = differs(self.printing)
        return [name for name in self.deal.edicts.values() if name in changed]

    def season_rule(self, s: int) -> data.SeasonCard:
        """Season ``s``'s card as the rules score it."""
        sd = self.deal.seasons[s]
        return data.SeasonCard(sd.name, sd.threshold, sd.edicts)

    def ambushes_out(self, s: int) -> list[str]:
        """The ambush cards revealed from the first season to season ``s`` so
        far, in the order they came out: those a map may hold by then. The
        rest of the setup's ambushes are still face down, and a list of them
        would tell the table which are to come."""
        return list(dict.fromkeys(r.name for r in self._revealed_through(s) if r.kind == "ambush"))

    def reveal_order(self) -> dict[str, int]:
        """Each card's place in the whole game's reveals (its first, if it is reshuffled)."""
        names = [r.name for s in self.deal.seasons for t in s.turns for r in t.reveals]
        return {name: i for i, name in reversed(list(enumerate(names)))}

    def revealed(self, s: int) -> list[deck.Reveal]:
        """The cards revealed in season ``s`` so far, in order."""
        sd = self.deal.seasons[s]
        turns = sd.turns if s < self.current else sd.turns[: self.position.turn_index]
        return [r for t in turns for r in t.reveals]

    def ambushes_revealed(self, s: int) -> list[str]:
        """Ambush cards revealed in season ``s`` so far."""
        return [r.name for r in self.revealed(s) if r.kind == "ambush"]

    def heroes_revealed(self, s: int) -> int:
        """Hero cards revealed from the first season to season ``s`` so far:
        the most hero spaces a map can hold at season ``s``'s end, since each
        revealed hero is drawn once by every player and goes back to the box."""
        return sum(r.kind == "hero" for r in self._revealed_through(s))

    def monsters_at_most(self, s: int) -> int | None:
        """The most monster spaces a map can hold at season ``s``'s end, from
        the cards revealed from the first season up to it so far (None once
        the Zombie Plague spreads them)."""
        return heroes.most_monster_spaces(self._revealed_through(s))

    def heroes_named(self, s: int) -> list[str]:
        """The hero cards revealed from the first season to season ``s`` so
        far, in order: the heroes a map may hold by then."""
        return [r.name for r in self._revealed_through(s) if r.kind == "hero"]

    def _revealed_through(self, s: int) -> list[deck.Reveal]:
        return [r for i in range(min(s, self.current) + 1) for r in self.revealed(i)]

    def latest_ambush(self, s: int) -> str | None:
        """The ambush card revealed last in season ``s`` so far, the one a
        monster drawn now most likely belongs to; None before any this season."""
        revealed = self.ambushes_revealed(s)
        return revealed[-1] if revealed else None


def purge_expired(session: Session, lifetime: timedelta) -> int:
    """Delete every table that has expired (its pages already answer 410),
    with its seats, sheets and scores; how many tables went.

    One DELETE of the tables: the schema's foreign keys cascade it to the
    seats and from them to the sheets and scores (``ON DELETE CASCADE``),
    so nothing is left pointing at a table that is gone. A table revealed
    meanwhile has a new ``updated_at`` and stays."""
    statement = (
        delete(GameTable)
        .where(GameTable.updated_at < idle_since(lifetime))
        .execution_options(synchronize_session=False)
    )
    result = session.connection().execute(statement)
    session.commit()
    return int(result.rowcount)
