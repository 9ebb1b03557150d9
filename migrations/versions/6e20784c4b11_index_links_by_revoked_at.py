"""index links by revoked_at

Each app process keeps the links it looked up and asks once a second which tables had a link
revoked since its last look (``referee.store.links.revoked_since``), to forget those; this index
makes that read cheap however many links there are.

Revision ID: 6e20784c4b11
Revises: 8cc6cce71c44
Create Date: 2026-11-30 03:19:53.548416

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '6e20784c4b11'
down_revision = '8cc6cce71c44'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('links', schema=None) as batch_op:
        batch_op.create_index('ix_links_revoked_at', ['revoked_at'], unique=False)


def downgrade():
    with op.batch_alter_table('links', schema=None) as batch_op:
        batch_op.drop_index('ix_links_revoked_at')
