"""tables and entries

Game tables and their append-only log. Reviewed: the same schema on SQLite and PostgreSQL
(JSON is json on PostgreSQL and text on SQLite; DateTime(timezone=True) is timestamptz on
PostgreSQL and UTC text on SQLite, the app always writes UTC). UNIQUE (table_id, seq) is also the
index the log is read in order with.

Revision ID: 582bd6960fa3
Revises: 
Create Date: 2026-11-29 20:40:20.009040

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '582bd6960fa3'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('tables',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.Column('options', sa.JSON(), nullable=False),
    sa.Column('first_player', sa.String(length=64), nullable=True),
    sa.Column('last_seq', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_tables'))
    )
    op.create_table('entries',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('payload', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('event', 'undo', 'amend')", name=op.f('ck_entries_kind')),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_entries_table_id_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_entries')),
    sa.UniqueConstraint('table_id', 'seq', name=op.f('uq_entries_table_id_seq'))
    )


def downgrade():
    op.drop_table('entries')
    op.drop_table('tables')
