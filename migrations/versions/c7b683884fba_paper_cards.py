"""paper cards

A paper card read into a table: which of the table's entries came from it (the history marks
them "from paper") and its photo, straightened and cropped to the card, which its scorekeeper
may delete (the row, and so the mark, stays). One per table.

Revision ID: c7b683884fba
Revises: 4e1d2c7b9a30
Create Date: 2026-12-06 08:29:56.090954

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "c7b683884fba"
down_revision = "4e1d2c7b9a30"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "paper_cards",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("first_seq", sa.Integer(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("photo", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["tables.id"], name=op.f("fk_paper_cards_table_id_tables")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_paper_cards")),
        sa.UniqueConstraint("table_id", name=op.f("uq_paper_cards_table_id")),
    )


def downgrade():
    op.drop_table("paper_cards")
