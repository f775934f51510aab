"""Reading the canonical map text, and refusing what is not a map."""

from __future__ import annotations

import pytest

from referee.rules.errors import MapError
from referee.rules.sheet import MapSheet, side_named

BLANK_A = MapSheet.blank("A").text()


def test_blank_side_round_trips() -> None:
    for letter in "ABCD":
        sheet = MapSheet.blank(letter)
        assert MapSheet.parse(sheet.text(), letter) == sheet


def test_parse_forgives_surrounding_blank_lines_and_trailing_spaces() -> None:
    text = "\n\n" + "\n".join(line + "  " for line in BLANK_A.splitlines()) + "\n\n"
    assert MapSheet.parse(text, "a").text() == BLANK_A


def replace(text: str, row: int, col: int, code: str) -> str:
    lines = text.splitlines()
    lines[row] = lines[row][:col] + code + lines[row][col + 1 :]
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("text", "message", "row", "col"),
    [
        ("\n".join(BLANK_A.splitlines()[:10]), "this one has 10 rows", None, None),
        (BLANK_A + "\n...........", "this one has 12 rows", None, None),
        (replace(BLANK_A, 4, 0, "..").replace("\n", "\n", 1), "row 5 has 12 spaces", 4, None),
        ("...........", "this one has 1 row", None, None),
        (
            "\n".join(line if r != 4 else "." for r, line in enumerate(BLANK_A.splitlines())),
            "row 5 has 1 space;",
            4,
            None,
        ),
        (replace(BLANK_A, 6, 2, "Q"), "row 7, column 3: 'Q' is not a map code", 6, 2),
        (replace(BLANK_A, 1, 3, "."), "row 2, column 4: side A prints a mountain here", 1, 3),
        (replace(BLANK_A, 1, 3, "F"), "row 2, column 4: side A prints a mountain here", 1, 3),
        (replace(BLANK_A, 0, 0, "^"), "row 1, column 1: side A has no mountain here", 0, 0),
        (replace(BLANK_A, 10, 10, "#"), "row 11, column 11: side A has no wasteland here", 10, 10),
    ],
)
def test_bad_maps_name_the_row_and_column(text: str, message: str, row: int | None, col: int | None) -> None:
    with pytest.raises(MapError) as caught:
        MapSheet.parse(text, "A")
    assert message in str(caught.value)
    assert caught.value.row == row
    assert caught.value.col == col


def test_side_b_wasteland_must_stay() -> None:
    text = replace(MapSheet.blank("B").text(), 4, 4, "V")
    with pytest.raises(MapError, match="row 5, column 5: side B prints a wasteland here"):
        MapSheet.parse(text, "B")


def test_unknown_side() -> None:
    with pytest.raises(MapError, match="there is no map side 'E'"):
        side_named("E")


def test_ruins_are_empty_until_drawn_on() -> None:
    sheet = MapSheet.blank("A")
    assert (1, 5) in sheet.side.ruins
    assert sheet.at(1, 5) == "."
    assert not sheet.filled[1 * 11 + 5]
    drawn = MapSheet.parse(replace(sheet.text(), 1, 5, "A"), "A")
    assert drawn.filled[1 * 11 + 5]


def test_clusters_are_orthogonal_and_one_terrain() -> None:
    text = BLANK_A
    for r, c, code in [(0, 0, "F"), (0, 1, "F"), (1, 1, "F"), (2, 2, "F"), (0, 2, "V")]:
        text = replace(text, r, c, code)
    sheet = MapSheet.parse(text, "A")
    sizes = sorted(len(c) for c in sheet.clusters("F"))
    # (0,0)-(0,1)-(1,1) connect; (2,2) only touches (1,1) at a corner.
    assert sizes == [1, 3]
