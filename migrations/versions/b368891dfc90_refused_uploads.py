"""refused uploads

Record uploads refused to an address (a keyed hash of it, as ``tables.creator``), counted with
the tables it made for the limit on new tables: reading a record is the costliest thing a
stranger can ask for, so a refused upload is no free retry. Indexed by address and time for that
count; rows older than the limit's window are deleted as new ones come.

Revision ID: b368891dfc90
Revises: 6e20784c4b11
Create Date: 2026-12-01 09:07:34.070108

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b368891dfc90'
down_revision = '6e20784c4b11'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('refused_uploads',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('creator', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_refused_uploads'))
    )
    with op.batch_alter_table('refused_uploads', schema=None) as batch_op:
        batch_op.create_index('ix_refused_uploads_creator_created_at', ['creator', 'created_at'], unique=False)



def downgrade():
    with op.batch_alter_table('refused_uploads', schema=None) as batch_op:
        batch_op.drop_index('ix_refused_uploads_creator_created_at')

    op.drop_table('refused_uploads')
