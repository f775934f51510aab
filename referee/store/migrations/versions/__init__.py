"""One migration per file; Alembic skips this one."""
