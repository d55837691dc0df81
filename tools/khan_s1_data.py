"""Writes the INVENTED data of the synthetic board KHAN-S1 (spec khan.md §11).

Nothing here is the real Khan board, deck or tile set (those are not public). Replace the
files this script writes with the real ones to play the real game; see ../README.md.
Square names: spec cell (r, c) with r0 the north row -> column letter chr(97 + c), row 12 - r.
Kept out of rulesets/ (rulesets hold no Python); it writes into rulesets/khan/data/:
    python tools/khan_s1_data.py
"""
import json
import os

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rulesets", "khan", "data"))

MAP = """###OOOOOOO##
#MMIII~IIIF#
#MMIII~IIFF#
OMMTTT~TTFFO
OMMTTT~TTFFO
ORRTTT~~~~~O
ORRRTTSSSSSO
ORRRRSSSSSSO
ORRRRSSSSSSO
ORRRRRSSSSSO
ORRRRRSSSSSO
#OOOOOOO#OO#
"""


def sq(r, c):
    return f"{chr(97 + c)}{12 - r}"


rows = MAP.split()
open("khan-s1.map.txt", "w").write(MAP)

# banks: land areas separated by the river (side adjacency), flood fill
land = {(r, c) for r in range(12) for c in range(12) if rows[r][c] in "MITSRF"}
bank = {}
name = iter("AB")
for start in sorted(land):
    if start in bank:
        continue
    b = next(name)
    todo = [start]
    while todo:
        r, c = todo.pop()
        if (r, c) in bank or (r, c) not in land:
            continue
        bank[(r, c)] = b
        todo += [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
with open("khan-s1.banks.txt", "w") as f:
    for r in range(12):
        f.write("".join(bank.get((r, c), ".") for c in range(12)) + "\n")

RULERS = [  # (name, colour, start cell)  only seljuk and russian are real names
    ("seljuk", "grey", (7, 3)), ("russian", "light blue", (10, 7)), ("orange", "orange", (1, 4)),
    ("purple", "purple", (4, 7)), ("brown", "brown", (2, 1)), ("pink", "pink", (3, 10)),
    ("white", "white", (8, 8)), ("darkgreen", "dark green", (6, 4))]
json.dump({n: {"colour": col, "start": sq(*rc)} for n, col, rc in RULERS}, open("rulers.json", "w"), indent=1)

DIRS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
BG = ["mountains", "ice", "tundra", "sand", "rocky", "forest", "khan", "river", "outer"]
# Each card is named by its ruler and background (`seljuk_ice`); the names are the members of
# `enum Card` in khan.rules, printed here to paste there when the deck changes.
deck = {f"{RULERS[i][0]}_{BG[j]}": {"ruler": RULERS[i][0], "background": BG[j], "direction": DIRS[(i + j) % 8]}
        for i in range(8) for j in range(9)}
json.dump(deck, open("deck.json", "w"), indent=0)
print("enum Card = " + ", ".join(deck))

TILES = [  # id, form (kind/shape = colour/vorm), bridge, cells (c, r), copies
    ("cd2", "C-D2", False, [(0, 0), (1, 0)], 3),
    ("ci3", "C-I3", False, [(0, 0), (1, 0), (2, 0)], 2),
    ("cl3", "C-L3", False, [(0, 0), (0, 1), (1, 1)], 2),
    ("ci4", "C-I4", False, [(0, 0), (1, 0), (2, 0), (3, 0)], 1),
    ("co4", "C-O4", False, [(0, 0), (1, 0), (0, 1), (1, 1)], 1),
    ("ct4", "C-T4", False, [(0, 0), (1, 0), (2, 0), (1, 1)], 1),
    ("cs4", "C-S4", False, [(1, 0), (2, 0), (0, 1), (1, 1)], 1),
    ("cl4", "C-L4", False, [(0, 0), (0, 1), (0, 2), (1, 2)], 1),
    ("cp5", "C-P5", False, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], 1),
    ("cu5", "C-U5", False, [(0, 0), (2, 0), (0, 1), (1, 1), (2, 1)], 1),
    ("cr6", "C-R6", False, [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)], 1),
    ("bi3", "B-I3", True, [(0, 0), (1, 0), (2, 0)], 2),
    ("bi4", "B-I4", True, [(0, 0), (1, 0), (2, 0), (3, 0)], 1),
    ("bl4", "B-L4", True, [(0, 0), (0, 1), (0, 2), (1, 0)], 2),
]
tiles = {}
for tid, form, bridge, cells, copies in TILES:
    for k in range(copies):
        name_ = tid + ("abc"[k] if copies > 1 else "")
        tiles[name_] = {"form": form, "bridge": bridge, "shape": [list(c) for c in cells], "value": len(cells)}
json.dump(tiles, open("tiles.json", "w"), indent=1)
print(" ".join(tiles))

json.dump({"high_morale_card": [2, 2, 1], "protection_card": [2, 1, 1], "divine_card": [2, 1, 1], "reserve_card": [2, 1, 1]},
          open("specials.json", "w"), indent=1)
