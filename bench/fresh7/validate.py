"""Check the fresh7 held-out files (bench/fresh_check.py): schema, counts, and that each
expected substring occurs in the text it must match. Standard library only.

    python validate.py          # exits 1 and lists every problem if any check fails
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from fresh_check import run  # noqa: E402

# domains that earlier helpers used for update chains; the brief asks for new ones
USED_DOMAINS = ("vegetable patch", "band", "food pantry", "rental car", "pharmacy", "chess",
                "landlord", "soccer", "cloud bill", "coffee subscription", "dentist", "book club",
                "home internet", "piano", "trash", "carpool", "climbing gym", "beehive",
                "babysitter", "choir", "library", "blood-pressure", "parking", "cat food",
                "housekeeper", "building fee", "shuttle", "badminton", "restaurant")


if __name__ == "__main__":
    sys.exit(run(HERE, USED_DOMAINS))
