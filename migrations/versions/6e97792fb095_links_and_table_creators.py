"""links and table creators

The links that open a table (a keeper, viewer or player capability, stored as the SHA-256 of a
random token; the UNIQUE constraint on the hash is the index a request looks its link up by) and
who created each table (a keyed hash of the address, indexed with the time for the rate limit).
Tables made before this revision have no links: nobody can open them until a link is made with
``flask --app app links TABLE_ID`` (see the README).

Revision ID: 6e97792fb095
Revises: 582bd6960fa3
Create Date: 2026-11-29 23:28:21.446938

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6e97792fb095'
down_revision = '582bd6960fa3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('player', sa.String(length=64), nullable=True),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("kind IN ('keeper', 'viewer', 'player')", name=op.f('ck_links_kind')),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_links_table_id_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_links')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_links_token_hash'))
    )
    with op.batch_alter_table('links', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_links_table_id'), ['table_id'], unique=False)

    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('creator', sa.String(length=64), nullable=True))
        batch_op.create_index('ix_tables_creator_created_at', ['creator', 'created_at'], unique=False)



def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index('ix_tables_creator_created_at')
        batch_op.drop_column('creator')

    with op.batch_alter_table('links', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_links_table_id'))

    op.drop_table('links')
