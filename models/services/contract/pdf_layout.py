"""A minimal page layout on a reportlab canvas: a title, paragraphs and gridded tables that flow
over pages (a table's header row is repeated on every page it spans).

All text of a page is written as one BT/ET block of positioned strings (``canvas.addLiteral``) and
each table chunk's grid is one ``canvas.grid`` call: far cheaper than platypus flowables, which
measure every cell and open a text object per string, with reportlab's pure-Python number
formatting for every coordinate (its C accelerator is not installed).
"""

from __future__ import annotations

from functools import cache

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import Canvas

MARGIN = 40.0
FONT, BOLD = "Helvetica", "Helvetica-Bold"
CELL_SIZE, CELL_LEADING, CELL_PAD = 8.0, 10.0, 3.0


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` as lines no wider than ``width`` (words first, then characters of a long word)."""
    if stringWidth(text, font, size) <= width:
        return [text]
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if stringWidth(candidate, font, size) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = ""
        for char in word:  # a word longer than the column (hashes, URLs) breaks anywhere
            if current and stringWidth(current + char, font, size) > width:
                lines.append(current)
                current = ""
            current += char
    lines.append(current)
    return lines


# PDF literal-string escapes for bytes in the font's single-byte encoding (what reportlab writes).
_ESCAPES = {c: f"\\{c:03o}" for c in (*range(32), *range(127, 256))} | {ord(c): "\\" + c for c in "\\()"}


@cache
def _encoding(font: str) -> str:
    return getFont(font).encName


def _internal_name(canvas: Canvas, font: str) -> str:
    """The page resource name of ``font`` (registers it with the document on first use)."""
    return canvas._doc.getInternalFontName(font)  # what reportlab's own text objects call


class Layout:
    """Writes top to bottom on ``canvas``, starting new pages as needed; call ``finish()`` last."""

    def __init__(self, canvas: Canvas, pagesize=A4) -> None:
        self.canvas = canvas
        self.width, self.height = pagesize
        self.usable = self.width - 2 * MARGIN
        self.y = self.height - MARGIN
        self._ops: list[str] = []
        self._font: tuple[str, float] | None = None
        self._page_setup()

    def _page_setup(self) -> None:
        # showPage resets the graphics state: grid lines are thin and grey on every page.
        self.canvas.setLineWidth(0.25)
        self.canvas.setStrokeColor(colors.grey)

    def _put(self, x: float, y: float, value: str, font: str = FONT, size: float = CELL_SIZE) -> None:
        try:
            encoded = value.encode(_encoding(font))
        except UnicodeEncodeError:  # outside the font's encoding: reportlab's substitution fonts
            self.canvas.setFont(font, size)
            self.canvas.drawString(x, y, value)
            return
        if self._font != (font, size):
            self._ops.append(f"{_internal_name(self.canvas, font)} {size:g} Tf")
            self._font = (font, size)
        self._ops.append(f"1 0 0 1 {x:.2f} {y:.2f} Tm ({encoded.decode('latin-1').translate(_ESCAPES)}) Tj")

    def _flush_text(self) -> None:
        if self._ops:
            self.canvas.addLiteral("BT\n" + "\n".join(self._ops) + "\nET")
        self._ops, self._font = [], None

    def _new_page(self) -> None:
        self._flush_text()
        self.canvas.showPage()
        self.y = self.height - MARGIN
        self._page_setup()

    def _room(self, needed: float) -> bool:
        return self.y - needed >= MARGIN

    def title(self, value: str) -> None:
        size = 16.0
        self._put(
            MARGIN + max(0.0, (self.usable - stringWidth(value, BOLD, size)) / 2), self.y - size, value, BOLD, size
        )
        self.y -= size + 12

    def paragraph(self, value: str, size: float = 9.0) -> None:
        for line in wrap(value, FONT, size, self.usable):
            if not self._room(size + 3):
                self._new_page()
            self._put(MARGIN, self.y - size, line, FONT, size)
            self.y -= size + 3
        self.y -= 8

    def table(
        self,
        title: str,
        widths: tuple[float, ...],
        rows: list[tuple[str, ...]],
        header: tuple[str, ...] | None = None,
        fixed: bool = False,
    ) -> None:
        """A heading and a gridded table; ``fixed`` skips measuring cells known to fit their column."""
        xs = [MARGIN]
        for width in widths:
            xs.append(xs[-1] + width)
        cells = [
            [
                [value] if fixed else wrap(value, FONT, CELL_SIZE, width - 2 * CELL_PAD)
                for value, width in zip(row, widths)
            ]
            for row in rows
        ]
        first = max((len(c) for c in cells[0]), default=1) if cells else 1
        heading = 11.0
        if not self._room(heading + 8 + (CELL_LEADING + 4) * (first + (1 if header else 0))):
            self._new_page()
        self._put(MARGIN, self.y - heading, title, BOLD, heading)
        self.y -= heading + 8
        ys = self._start_chunk(xs, header)
        for row in cells:
            height = CELL_LEADING * max(len(lines) for lines in row) + 4
            if not self._room(height):
                self.canvas.grid(xs, ys)
                self._new_page()
                ys = self._start_chunk(xs, header)
            self._row(xs, row)
            self.y -= height
            ys.append(self.y)
        self.canvas.grid(xs, ys)
        self.y -= 10

    def _start_chunk(self, xs: list[float], header: tuple[str, ...] | None) -> list[float]:
        ys = [self.y]
        if header:
            height = CELL_LEADING + 4
            self.canvas.setFillColor(colors.whitesmoke)
            self.canvas.rect(xs[0], self.y - height, xs[-1] - xs[0], height, stroke=0, fill=1)
            self.canvas.setFillColor(colors.black)
            self._row(xs, [[value] for value in header])
            self.y -= height
            ys.append(self.y)
        return ys

    def _row(self, xs: list[float], row: list[list[str]]) -> None:
        for x, lines in zip(xs, row):
            for index, line in enumerate(lines):
                if line:
                    self._put(x + CELL_PAD, self.y - 2 - CELL_SIZE - index * CELL_LEADING, line)

    def finish(self) -> None:
        """Emit the last page and the document."""
        self._flush_text()
        self.canvas.save()
