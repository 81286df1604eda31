"""The lowest layer: small helpers every other layer may use (CJK text, the clock, migrations).

It imports nothing of Hearth's own, so history (app/core), the skills and the engines share
one definition of each instead of keeping copies."""
