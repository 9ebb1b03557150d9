"""Paper in: a photographed readable scorecard read back as the readings the rules allow.

``layout`` is where everything sits on the readable card (the printed card, ``referee.sheets
.readable``, draws it from the same figures, so the two cannot drift apart); ``photo`` finds the
card in a photo, straightens it and reads its QR code; ``digits`` is the small classifier that
reads a handwritten digit; ``reader`` reads every cell and, with the rules engine, chooses per
round the readings the rules allow and names the cells it still doubts. Pure: no web, no
database, no PDF library (``tests/test_layers.py``).
"""
