"""The rules engine: pure Python, no Flask, OpenCV or database.

It holds the printed game (``data``), the map (``sheet``), the 32 scoring
cards (``cards``), season and game scoring (``season``, ``game``) and the
dealer (``deck``).
"""
