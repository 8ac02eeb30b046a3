"""Spec data shared by the Shuriken 2D tests: the §11.1 figures and §12 positions."""

from __future__ import annotations

START = ("19/19/19/12bbb4/11w---w3/11w---w3/11w---w3/12bbb4/19/19/19/4bbb12/3w---w11/"
         "3w---w11/3w---w11/4bbb12/19/19/19 b")

# §11.1: (name, added black stones, expected Black loops, expected Black rank)
FIGURES = [
    ("V0", "", (), 0),
    ("V1", "D1 D2 M2 N2 O2 D3 L3 O3 D4 K4 C5 J5 B6 J6 B7 J7 B8 J8 B9 J9 M9 B10 J10 K10 L10 "
           "B11 B12 B13 B14 B15 B16 B17 B18 C18 C19", ("single{W1}", "single{W3}"), 2),
    ("V2", "L2 M2 N2 K3 N3 J4 I5 H6 G7 G8 G9 N9 F10 N10 F11 N11 N12 L13 M13 K14 J15 I16 F17 "
           "H17 F18 G18", ("double{W1,W2}",), 1),
    ("V3", "D1 D2 D3 D4 E4 E5 E6 E7 E8 F8 F9 F10 F11 F17 F18 E19", ("double{W2,W3}",), 1),
    ("V4", "P1 O2 N3 N9 H10 I10 J10 K10 L10 M10 G11 F17 E18 E19", ("triple{W1,W2,W3}",), 1),
    ("V5", "Q2 R2 L3 M3 P3 R3 K4 R4 J5 R5 J6 R6 J7 R7 J8 Q8 J9 K9 M9 O9 P9 K10 L10",
           ("single{W1}",), 1),
    ("V6", "O1 O2 L3 M3 N3 K4 J5 J6 J7 J8 J9 N9 J10 N10 J11 M11 J12 K12 L12 L13 L14 L15 K16 "
           "K17 K18 K19", ("single{W1}", "single{W3}", "double{W1,W3}"), 2),
    ("V7", "C1 B2 K2 L2 M2 B3 C3 I3 J3 M3 C4 H4 C5 H5 C6 H6 B7 G7 A8 G8 A9 G9 O9 A10 G10 O10 "
           "A11 F11 N11 A12 N12 A13 N13 A14 N14 O14 A15 B15 O15 B16 O16 B17 F17 N17 A18 F18 "
           "N18 A19 E19 M19", ("single{W3}", "double{W1,W2}", "triple{W1,W2,W3}"), 2),
]
FIGURE_COUNTS = {"V1": 35, "V2": 26, "V3": 16, "V4": 14, "V5": 23, "V6": 26, "V7": 50}

# §11.2: loops after a 180° rotation (W1 <-> W2).
ROTATED_LOOPS = {
    "V0": (), "V1": ("single{W2}", "single{W3}"), "V2": ("double{W1,W2}",),
    "V3": ("double{W1,W3}",), "V4": ("triple{W1,W2,W3}",), "V5": ("single{W2}",),
    "V6": ("single{W2}", "single{W3}", "double{W2,W3}"),
    "V7": ("single{W3}", "double{W1,W2}", "triple{W1,W2,W3}"),
}
# §11.2: loops after the transpose (stones made white): W1 <-> W2 as for rotation.
TRANSPOSED_LOOPS = ROTATED_LOOPS

S1_AFTER_K10 = ("19/19/19/12bbb4/11w---w3/11w---w3/11w---w3/12bbb4/19/10b8/19/4bbb12/3w---w11/"
                "3w---w11/3w---w11/4bbb12/19/19/19 w")
S2 = ("3b15/3b8bbb4/3b7b2b4/3b6b1bbb4/2b6b1w---w3/1b7b1w---w3/1b7b1w---w3/1b7b2bbb4/1b7b2b6/"
      "1b7bbb7/1b17/4bbb12/1b1w---w11/1b1w---w11/1b1w---w11/1b2bbb12/1b17/1bb16/2b16 b")
S5_AFTER_SWAP = ("19/19/19/12bbb4/11w---w3/11w---w3/11w---w3/12bbb4/19/19/9w9/4bbb12/3w---w11/"
                 "3w---w11/3w---w11/4bbb12/19/19/19 b")
S6 = ("19/5wwwwww1wwwwww1/4w12ww/wwww8bbb4/11w---w3/11w---w3/11w---w3/12bbb4/19/4wwwwww9/"
      "3w5w9/2w1bbb2w9/1w1w---ww10/1w1w---w11/1www---w11/4bbb12/19/19/19 w")
