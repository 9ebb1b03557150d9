"""group imports

Group files being loaded, off the request that uploaded them: the upload until the loader has
read it, how far it is, the new group or why it was refused. Counted by address and time with
the tables an address made (the limit on new tables), whether they finish or not.

Revision ID: 7a2ca0a01a50
Revises: 2a140cd9c846
Create Date: 2026-12-05 13:03:49.151828

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7a2ca0a01a50'
down_revision = '2a140cd9c846'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('group_imports',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('creator', sa.String(length=64), nullable=True),
    sa.Column('state', sa.String(length=8), nullable=False),
    sa.Column('time_zone', sa.String(length=64), nullable=False),
    sa.Column('language', sa.String(length=8), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=True),
    sa.Column('tables', sa.Integer(), nullable=False),
    sa.Column('checked', sa.Integer(), nullable=False),
    sa.Column('saved', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.String(length=64), nullable=True),
    sa.Column('messages', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("state IN ('waiting', 'running', 'done', 'opened', 'failed')", name=op.f('ck_group_imports_state')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_group_imports'))
    )
    with op.batch_alter_table('group_imports', schema=None) as batch_op:
        batch_op.create_index('ix_group_imports_creator_created_at', ['creator', 'created_at'], unique=False)
        batch_op.create_index('ix_group_imports_state', ['state'], unique=False)



def downgrade():
    with op.batch_alter_table('group_imports', schema=None) as batch_op:
        batch_op.drop_index('ix_group_imports_state')
        batch_op.drop_index('ix_group_imports_creator_created_at')

    op.drop_table('group_imports')
