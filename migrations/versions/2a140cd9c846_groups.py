"""groups

Groups: the people who play together (docs/group-format.md). A group (its name, the time zone
its evenings are dated in, a version raised by every change), its roster (stable player ids,
the name shown now, retired or not), its seasons (a name and the local date each starts on),
the tables it keeps (a table in one group at most: every seat's roster id or none for a guest,
whether it counts, when it was played and at which offset), and its links (keeper or viewer,
stored as the SHA-256 of a random token, revocable, in a table of their own so that a table's
links never open a group). Nothing existing changes.

Revision ID: 2a140cd9c846
Revises: b368891dfc90
Create Date: 2026-12-02 15:29:33.523900

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '2a140cd9c846'
down_revision = 'b368891dfc90'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('groups',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('creator', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_groups'))
    )
    with op.batch_alter_table('groups', schema=None) as batch_op:
        batch_op.create_index('ix_groups_creator_created_at', ['creator', 'created_at'], unique=False)

    op.create_table('group_links',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=8), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('revoked_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("kind IN ('keeper', 'viewer')", name=op.f('ck_group_links_kind')),
    sa.ForeignKeyConstraint(['group_id'], ['groups.id'], name=op.f('fk_group_links_group_id_groups')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_group_links')),
    sa.UniqueConstraint('token_hash', name=op.f('uq_group_links_token_hash'))
    )
    with op.batch_alter_table('group_links', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_group_links_group_id'), ['group_id'], unique=False)

    op.create_table('group_players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.String(length=40), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('retired', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['groups.id'], name=op.f('fk_group_players_group_id_groups')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_group_players')),
    sa.UniqueConstraint('group_id', 'player_id', name=op.f('uq_group_players_group_id_player_id'))
    )
    op.create_table('group_seasons',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.String(length=64), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('starts_on', sa.Date(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['groups.id'], name=op.f('fk_group_seasons_group_id_groups')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_group_seasons')),
    sa.UniqueConstraint('group_id', 'name', name=op.f('uq_group_seasons_group_id_name')),
    sa.UniqueConstraint('group_id', 'starts_on', name=op.f('uq_group_seasons_group_id_starts_on'))
    )
    op.create_table('group_tables',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.String(length=64), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=False),
    sa.Column('seats', sa.JSON(), nullable=False),
    sa.Column('counts', sa.Boolean(), nullable=False),
    sa.Column('played_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('played_offset', sa.Integer(), nullable=False),
    sa.Column('added_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['groups.id'], name=op.f('fk_group_tables_group_id_groups')),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_group_tables_table_id_tables')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_group_tables')),
    sa.UniqueConstraint('table_id', name=op.f('uq_group_tables_table_id'))
    )
    with op.batch_alter_table('group_tables', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_group_tables_group_id'), ['group_id'], unique=False)



def downgrade():
    with op.batch_alter_table('group_tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_group_tables_group_id'))

    op.drop_table('group_tables')
    op.drop_table('group_seasons')
    op.drop_table('group_players')
    with op.batch_alter_table('group_links', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_group_links_group_id'))

    op.drop_table('group_links')
    with op.batch_alter_table('groups', schema=None) as batch_op:
        batch_op.drop_index('ix_groups_creator_created_at')

    op.drop_table('groups')
