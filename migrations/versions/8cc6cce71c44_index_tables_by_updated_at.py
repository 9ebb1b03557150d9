"""index tables by updated_at

Each app process asks once a second which tables changed since its last look
(``referee.store.tables.changed_since``), to answer the pages' "has anything changed?" polls
from memory; this index makes that one read cheap however many tables there are.

Revision ID: 8cc6cce71c44
Revises: 6e97792fb095
Create Date: 2026-11-30 00:40:04.467760

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '8cc6cce71c44'
down_revision = '6e97792fb095'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.create_index('ix_tables_updated_at', ['updated_at'], unique=False)



def downgrade():
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index('ix_tables_updated_at')

