"""sticker reads: the repeat-scan filter shared by every server process

Revision ID: 8a4e6f2c1d57
Revises: 7c4e2a91d5f3
Create Date: 2026-11-25 15:45:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8a4e6f2c1d57'
down_revision = '7c4e2a91d5f3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'sticker_read',
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('card', sa.String(length=80), nullable=False),
        sa.Column('copy', sa.Integer(), nullable=False),
        sa.Column('read_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['game.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('game_id', 'card', 'copy'),
    )


def downgrade():
    op.drop_table('sticker_read')
