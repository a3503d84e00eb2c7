"""game records: one summary row per finished game, for the history and statistics

The rows are derived from the event logs; `flask --app wsgi stats rebuild` writes them
for games that ended before this table existed.

Revision ID: 7c4e2a91d5f3
Revises: 5b9d3c71a0e8
Create Date: 2026-11-25 15:30:00.000000

"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = '7c4e2a91d5f3'
down_revision = '5b9d3c71a0e8'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'game_record',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('ended_at', sa.DateTime(), nullable=False),
        sa.Column('mode', sa.String(length=8), nullable=False),
        sa.Column('difficulty', sa.String(length=12), nullable=True),
        sa.Column('ix', sa.Boolean(), nullable=False),
        sa.Column('epic', sa.Boolean(), nullable=False),
        sa.Column('data', sa.JSON(), nullable=False),
        sa.Column('written_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id'),
    )
    with op.batch_alter_table('game_record') as batch_op:
        batch_op.create_index(batch_op.f('ix_game_record_ended_at'), ['ended_at'], unique=False)


def downgrade():
    with op.batch_alter_table('game_record') as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_record_ended_at'))
    op.drop_table('game_record')
