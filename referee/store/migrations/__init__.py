"""The Alembic migration environment: ``env.py``, the script template and
``versions/``, one file per change to the schema, oldest first.

A package so that an installed referee carries its migrations;
``referee.store.schema`` runs them and ``flask --app referee db`` (Flask-Migrate)
names this folder.
"""
