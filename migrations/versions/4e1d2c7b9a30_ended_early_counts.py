"""a group's choice whether games ended early count

A group decides whether a table that ended before its last round counts in its numbers
(docs/group-format.md, "ended_early_counts"); every group so far counted them, so the column
starts true.

Revision ID: 4e1d2c7b9a30
Revises: 16c89baa361f
Create Date: 2026-12-06 08:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '4e1d2c7b9a30'
down_revision = '16c89baa361f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('groups', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('ended_early_counts', sa.Boolean(), server_default=sa.true(), nullable=False)
        )


def downgrade():
    with op.batch_alter_table('groups', schema=None) as batch_op:
        batch_op.drop_column('ended_early_counts')
