"""game ids never reused (SQLite's AUTOINCREMENT)

A page still showing a deleted game must not post into a new game that got its id.
SQLite gives a new row the largest id plus one, so it reused the id of the last game
deleted; AUTOINCREMENT needs the table made anew. PostgreSQL's sequences never go back:
nothing to do there.

Revision ID: 5b9d3c71a0e8
Revises: 2e2a20be4f47
Create Date: 2026-11-25 14:30:00.000000

"""
from alembic import op


# revision identifiers, used by Alembic.
revision = '5b9d3c71a0e8'
down_revision = '2e2a20be4f47'
branch_labels = None
depends_on = None


def _recreate_game(autoincrement):
    """Make the game table anew (rows kept; env.py turns foreign keys off meanwhile, so
    dropping the old table does not delete the games' events)."""
    if op.get_bind().dialect.name != "sqlite":
        return
    with op.batch_alter_table(
        "game", recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}
    ):
        pass


def upgrade():
    _recreate_game(autoincrement=True)


def downgrade():
    _recreate_game(autoincrement=False)
