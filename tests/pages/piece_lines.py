"""Random drawing lines for the template tests (issue #29): SVG elements whose coordinates
have 0 to 3 decimals, negatives, several coordinate attributes, points, paths and
transforms, some written in ways no template may change (``1.50``, ``-0``, ``1e3``, four
decimals), each drawn at several places."""

from __future__ import annotations

from hypothesis import strategies as st

MILLI = st.integers(-400_000, 400_000).map(
    lambda value: value // 10 ** (value % 4) * 10 ** (value % 4))  # 0 to 3 decimals
ODD_NUMBERS = st.sampled_from(["1.50", "-0", "1e3", "0.1234", "007", ".5", "2.", "-0.0"])


def number(milli: int) -> str:
    """Thousandths written without float: the oracle the code under test must agree with."""
    sign = "-" if milli < 0 else ""
    whole, fraction = divmod(abs(milli), 1000)
    return f"{sign}{whole}" + (f".{fraction:03d}".rstrip("0") if fraction else "")


@st.composite
def shapes(draw):
    """A line as a function of where it is drawn (dx, dy in thousandths)."""
    kind = draw(st.sampled_from(["rect", "text", "line", "polygon", "path", "transform",
                                 "odd", "plain"]))
    a, b, c, d = (draw(MILLI) for _ in range(4))
    odd = draw(ODD_NUMBERS)
    label = draw(st.text(st.sampled_from("abK1 &;"), max_size=4))
    if kind == "rect":
        return lambda dx, dy: (f'<rect id="sq{label}{dx % 7}" x="{number(a + dx)}" '
                               f'y="{number(b + dy)}" width="24" height="{number(c)}" '
                               f'data-cell="{label}" fill="#fff"/>\n')
    if kind == "text":
        return lambda dx, dy: (f'<text x="{number(a + dx)}" y="{number(b + dy)}" '
                               f'font-size="11">{label}</text>\n')
    if kind == "line":
        return lambda dx, dy: (f'<line x1="{number(a + dx)}" y1="{number(b + dy)}" '
                               f'x2="{number(c + dx)}" y2="{number(d + dy)}"/>\n')
    if kind == "polygon":
        return lambda dx, dy: (f'<polygon points="{number(a + dx)},{number(b + dy)} '
                               f'{number(c + dx)},{number(d + dy)} {number(a + dx)},'
                               f'{number(d + dy)}"/>\n')
    if kind == "path":
        return lambda dx, dy: (f'<path d="M{number(a + dx)},{number(b + dy)} '
                               f'L{number(c + dx)} {number(d + dy)} H{number(a + dx)} '
                               f'V{number(b + dy)} l{number(c)},{number(d)} '
                               f'A5,5 0 0 1 {number(c + dx)},{number(b + dy)} z"/>\n')
    if kind == "transform":
        return lambda dx, dy: (f'<g transform="translate({number(a + dx)} {number(b + dy)}) '
                               f'rotate({number(c)} {number(c + dx)} {number(d + dy)})">\n')
    if kind == "odd":
        # A number written another way than the template would write it stays in the text.
        return lambda dx, dy: (f'<circle cx="{odd}" cy="{number(b + dy)}" '
                               f'r="{number(c)}" x="{number(a + dx)}"/>\n')
    return lambda dx, dy: f"<desc>{label} {number(a)}</desc>\n"


@st.composite
def drawn_lines(draw):
    """Lines of several shapes, each at one to four places, shuffled."""
    lines = []
    for shape in draw(st.lists(shapes(), min_size=1, max_size=6)):
        for dx, dy in draw(st.lists(st.tuples(MILLI, MILLI), min_size=1, max_size=4)):
            lines.append(shape(dx, dy))
    return draw(st.permutations(lines))
