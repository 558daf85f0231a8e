"""A small page layout on a reportlab canvas for contract documents: titles, section headings,
justified paragraphs, gridded tables that flow over pages (a table's header row is repeated on every
page it spans), signature lines, a notice line on top of every page and a footer with
"page N of M".

Pages are composed as raw PDF operators and only handed to the canvas at ``finish()``, when the
page count is known (the footer's "of M"). All text of a page is one BT/ET block of positioned
strings and all its lines one path: far cheaper than platypus flowables, which measure every cell
and open a text object per string, with reportlab's pure-Python number formatting for every
coordinate (its C accelerator is not installed). Text widths come from the font's width table over
the WinAnsi bytes, and word widths are cached, so wrapping a clause costs one lookup per word.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache

from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import getFont
from reportlab.pdfgen.canvas import Canvas

MARGIN = 40.0
FONT, BOLD = "Helvetica", "Helvetica-Bold"
CELL_SIZE, CELL_LEADING, CELL_PAD = 8.0, 10.0, 3.0
TEXT_SIZE = 8.5
FOOTER_SIZE, NOTICE_SIZE = 7.0, 7.0
SHADE = "0.93 g"  # header rows and section bands: light grey fill
LINES = "0.25 w 0.55 G"  # thin grey grid lines
PARAGRAPH_GAP = 5.0
MAX_STRETCH = 2.5  # justification widens a space to at most this many normal spaces


# PDF literal-string escapes for bytes in the font's single-byte encoding (what reportlab writes).
_ESCAPES = {c: f"\\{c:03o}" for c in (*range(32), *range(127, 256))} | {ord(c): "\\" + c for c in "\\()"}

# Python's own cp1252 codec (in C) stands in for reportlab's WinAnsiEncoding (a Python-level codec)
# for every character cp1252 defines, which includes everything this document prints.
_CODECS = {"WinAnsiEncoding": "cp1252"}


@cache
def _encoding(font: str) -> str:
    name = getFont(font).encName
    return _CODECS.get(name, name)


@cache
def _widths(font: str) -> tuple[int, ...]:
    return tuple(getFont(font).widths)


def encode(text: str, font: str) -> bytes:
    """``text`` in the font's single-byte encoding (WinAnsi for Helvetica). A character outside it
    is replaced by its unaccented base letter when that one is inside, else by "?"."""
    encoding = _encoding(font)
    try:
        return text.encode(encoding)
    except UnicodeEncodeError:
        out = bytearray()
        for char in text:
            try:
                out += char.encode(encoding)
            except UnicodeEncodeError:
                base = unicodedata.normalize("NFKD", char)[:1]
                try:
                    out += base.encode(encoding) if base and base != char else b"?"
                except UnicodeEncodeError:
                    out += b"?"
        return bytes(out)


@lru_cache(maxsize=16384)
def _shown(text: str, font: str) -> tuple[str, int]:
    """The PDF literal of ``text`` and its width in thousandths of the font size (amounts, dates
    and labels repeat across rows and contracts, hence the cache)."""
    data = encode(text, font)
    return data.decode("latin-1").translate(_ESCAPES), sum(map(_widths(font).__getitem__, data))


def text_width(text: str, font: str, size: float) -> float:
    """Width of ``text`` in points (the font's widths summed over the encoded bytes)."""
    return _shown(text, font)[1] * size / 1000


def _word_width(word: str, font: str, size: float) -> float:
    return _shown(word, font)[1] * size / 1000


# Words kept on the line of the word that follows them ("R$ 1.000,00", "nº 10.820", "§ 2º").
_GLUED = ("R$", "nº", "§")


def _words(text: str) -> list[str]:
    words: list[str] = []
    for word in text.split(" "):
        if words and words[-1].endswith(_GLUED):
            words[-1] = f"{words[-1]} {word}"
        else:
            words.append(word)
    return words


@lru_cache(maxsize=4096)  # labels and fixed sentences come back in every contract
def _measured_lines(text: str, font: str, size: float, width: float) -> tuple[tuple[str, float, int], ...]:
    """(line, its width, its spaces) for ``text`` wrapped at ``width``: words first, then the
    characters of a word longer than a line (hashes, URLs), which breaks anywhere."""
    space = _word_width(" ", font, size)
    lines: list[tuple[str, float, int]] = []
    words: list[str] = []
    used = 0.0
    for word in _words(text):
        measured = _word_width(word, font, size)
        if words and used + space + measured <= width:
            words.append(word)
            used += space + measured
            continue
        if words:
            line = " ".join(words)
            lines.append((line, used, line.count(" ")))
            words, used = [], 0.0
        if measured <= width:
            words, used = [word], measured
            continue
        piece, piece_width = "", 0.0
        for char in word:
            char_width = _word_width(char, font, size)
            if piece and piece_width + char_width > width:
                lines.append((piece, piece_width, 0))
                piece, piece_width = "", 0.0
            piece += char
            piece_width += char_width
        words, used = [piece], piece_width
    line = " ".join(words)
    lines.append((line, used, line.count(" ")))
    return tuple(lines)


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` as lines no wider than ``width``."""
    return [line for line, _, _ in _measured_lines(text, font, size, width)]


class _Page:
    __slots__ = ("graphics", "text")

    def __init__(self) -> None:
        self.graphics: list[str] = []
        self.text: list[str] = []

    def copy(self) -> _Page:
        page = _Page()
        page.graphics, page.text = list(self.graphics), list(self.text)
        return page


class Layout:
    """Writes top to bottom, starting new pages as needed; call ``finish()`` last.

    ``footer`` is a format string with ``{page}`` and ``{pages}``; ``notice`` (when not empty) is
    printed at the top of every page.
    """

    def __init__(self, canvas: Canvas, pagesize=A4, *, footer: str = "", notice: str = "") -> None:
        self.canvas = canvas
        self.width, self.height = pagesize
        self.usable = self.width - 2 * MARGIN
        self.footer = footer
        self.notice = notice
        self._fonts: dict[str, str] = {}
        self._pages: list[_Page] = []
        self._font: tuple[str, float] | None = None
        self._new_page()

    def continued_on(self, canvas: Canvas) -> Layout:
        """A copy of this layout as composed so far, to be continued and finished on ``canvas`` (a
        new document); this one is left as it is. The fonts are registered with the new document
        in the order this one registered them, so the names in the copied operators still hold."""
        copy = Layout.__new__(Layout)
        copy.canvas = canvas
        copy.width, copy.height, copy.usable = self.width, self.height, self.usable
        copy.footer, copy.notice = self.footer, self.notice
        copy._fonts = {}
        for font, name in self._fonts.items():
            if copy._font_name(font) != name:
                raise RuntimeError(f"font {font} is {copy._fonts[font]} in the new document, not {name}")
        copy._pages = [page.copy() for page in self._pages]
        copy._page, copy._font, copy.y = copy._pages[-1], self._font, self.y
        return copy

    # --- low level -------------------------------------------------------------------------------
    def _font_name(self, font: str) -> str:
        name = self._fonts.get(font)
        if name is None:  # registers the font with the document on first use (page resources)
            name = self._fonts[font] = self.canvas._doc.getInternalFontName(font)
        return name

    def _put(
        self, x: float, y: float, value: str, font: str = FONT, size: float = CELL_SIZE, spacing: float = 0.0
    ) -> None:
        self._show(f"{x:.2f} {y:.2f}", _shown(value, font)[0], font, size, spacing)

    def _show(self, position: str, literal: str, font: str, size: float, spacing: float = 0.0) -> None:
        page = self._page
        if self._font != (font, size):
            page.text.append(f"{self._font_name(font)} {size:g} Tf")
            self._font = (font, size)
        if spacing:
            page.text.append(f"{spacing:.3f} Tw 1 0 0 1 {position} Tm ({literal}) Tj 0 Tw")
        else:
            page.text.append(f"1 0 0 1 {position} Tm ({literal}) Tj")

    def _new_page(self) -> None:
        self._page = _Page()
        self._pages.append(self._page)
        self._font = None
        self.y = self.height - MARGIN

    def _room(self, needed: float) -> bool:
        return self.y - needed >= MARGIN

    def _ensure(self, needed: float) -> None:
        if not self._room(needed):
            self._new_page()

    def _band(self, x: float, y: float, width: float, height: float) -> None:
        self._page.graphics.append(f"q {SHADE} {x:.2f} {y:.2f} {width:.2f} {height:.2f} re f Q")

    def _grid(self, xs: list[float], ys: list[float]) -> None:
        top, bottom, left, right = ys[0], ys[-1], xs[0], xs[-1]
        path = [f"{x:.2f} {top:.2f} m {x:.2f} {bottom:.2f} l" for x in xs]
        path += [f"{left:.2f} {y:.2f} m {right:.2f} {y:.2f} l" for y in ys]
        self._page.graphics.append(f"q {LINES} " + " ".join(path) + " S Q")

    # --- blocks ----------------------------------------------------------------------------------
    def space(self, points: float) -> None:
        self.y -= points

    def title(self, value: str, size: float = 15.0) -> None:
        self._ensure(size + 6)
        self._put(
            MARGIN + max(0.0, (self.usable - text_width(value, BOLD, size)) / 2), self.y - size, value, BOLD, size
        )
        self.y -= size + 6

    def centered(self, value: str, size: float = TEXT_SIZE, font: str = FONT) -> None:
        for line in wrap(value, font, size, self.usable):
            self._ensure(size + 3)
            self._put(
                MARGIN + max(0.0, (self.usable - text_width(line, font, size)) / 2), self.y - size, line, font, size
            )
            self.y -= size + 3

    def heading(self, value: str, size: float = 9.5, keep_with: float = 40.0) -> None:
        """A section heading on a grey band, kept on the page of what follows it."""
        height = size + 7
        self._ensure(height + keep_with)
        self._band(MARGIN, self.y - height, self.usable, height)
        self._put(MARGIN + CELL_PAD, self.y - size - 2, value, BOLD, size)
        self.y -= height + 5

    def paragraph(
        self,
        value: str,
        size: float = TEXT_SIZE,
        font: str = FONT,
        justify: bool = True,
        lead: str = "",
        lead_font: str = BOLD,
    ) -> None:
        """Wrapped text; ``justify`` stretches every line but the last to the full width. ``lead``
        (a clause title, say) starts the paragraph in ``lead_font`` on its own line."""
        leading = size + 2.6
        if lead:
            self._ensure(leading * 3)
            for line in wrap(lead, lead_font, size, self.usable):
                self._put(MARGIN, self.y - size, line, lead_font, size)
                self.y -= leading
        lines = _measured_lines(value, font, size, self.usable)
        normal = _word_width(" ", font, size)
        for index, (line, used, spaces) in enumerate(lines):
            self._ensure(leading)
            last = index == len(lines) - 1
            spacing = (self.usable - used) / spaces if justify and not last and spaces else 0.0
            if spacing > MAX_STRETCH * normal:  # a line broken before a long word: ragged, not gappy
                spacing = 0.0
            self._put(MARGIN, self.y - size, line, font, size, spacing)
            self.y -= leading
        self.y -= PARAGRAPH_GAP

    def table(
        self,
        widths: tuple[float, ...],
        rows: Sequence[tuple[str, ...]],
        header: tuple[str, ...] | None = None,
        *,
        title: str = "",
        fixed: bool = False,
        align: str = "",
        bold_columns: tuple[int, ...] = (),
        bold_last_row: bool = False,
    ) -> None:
        """A gridded table under an optional ``title``.

        ``align`` has one letter per column (L or R, default L); ``fixed`` skips wrapping cells
        known to fit their column; ``bold_columns`` are drawn in bold (labels), and
        ``bold_last_row`` marks a totals row.
        """
        xs = [MARGIN]
        for width in widths:
            xs.append(xs[-1] + width)
        align = align.ljust(len(widths), "L")
        cells = [
            [
                [value]
                if fixed
                else wrap(value, BOLD if column in bold_columns else FONT, CELL_SIZE, width - 2 * CELL_PAD)
                for column, (value, width) in enumerate(zip(row, widths))
            ]
            for row in rows
        ]
        first = max((len(c) for c in cells[0]), default=1) if cells else 1
        heading = 9.5 if title else 0.0
        self._ensure(heading + 6 + (CELL_LEADING + 4) * (first + (1 if header else 0)))
        if title:
            self._put(MARGIN, self.y - heading, title, BOLD, heading)
            self.y -= heading + 5
        ys = self._start_chunk(xs, header, align)
        for index, row in enumerate(cells):
            height = CELL_LEADING * max(len(lines) for lines in row) + 4
            if not self._room(height):
                self._grid(xs, ys)
                self._new_page()
                ys = self._start_chunk(xs, header, align)
            bold_row = bold_last_row and index == len(cells) - 1
            if bold_row:
                self._band(xs[0], self.y - height, xs[-1] - xs[0], height)
            self._row(xs, row, align, bold_columns, bold_row)
            self.y -= height
            ys.append(self.y)
        self._grid(xs, ys)
        self.y -= 8

    def _start_chunk(self, xs: list[float], header: tuple[str, ...] | None, align: str) -> list[float]:
        ys = [self.y]
        if header:
            height = CELL_LEADING + 4
            self._band(xs[0], self.y - height, xs[-1] - xs[0], height)
            self._row(xs, [[value] for value in header], align, (), True)
            self.y -= height
            ys.append(self.y)
        return ys

    def _row(
        self, xs: list[float], row: list[list[str]], align: str, bold_columns: tuple[int, ...], bold: bool
    ) -> None:
        # Coordinates are formatted once per line and column: number formatting is most of the cost.
        for index in range(max(len(lines) for lines in row)):
            y = f"{self.y - 2 - CELL_SIZE - index * CELL_LEADING:.2f}"
            for column, lines in enumerate(row):
                if index >= len(lines) or not lines[index]:
                    continue
                font = BOLD if bold or column in bold_columns else FONT
                literal, width = _shown(lines[index], font)
                if align[column] == "R":
                    x = xs[column + 1] - CELL_PAD - width * CELL_SIZE / 1000
                else:
                    x = xs[column] + CELL_PAD
                self._show(f"{x:.2f} {y}", literal, font, CELL_SIZE)

    def signature(self, role: str, name: str, note: str) -> None:
        """A signature line: the role, a rule, the signer's name (wrapped) and a note under it."""
        left = MARGIN + 70
        names = wrap(name, FONT, TEXT_SIZE, self.usable - 70)
        self._ensure(40 + 10 * len(names))
        self.y -= 22
        self._put(MARGIN, self.y + 2, role, BOLD, TEXT_SIZE)
        self._page.graphics.append(f"q 0.5 w 0 G {left:.2f} {self.y:.2f} m {left + 300:.2f} {self.y:.2f} l S Q")
        for line in names:
            self.y -= 10
            self._put(left, self.y, line, FONT, TEXT_SIZE)
        self._put(left, self.y - 9, note, FONT, 7.0)
        self.y -= 14

    def page_break(self) -> None:
        """Start the next block on a new page (unless this one is still empty)."""
        if self._page.text or self._page.graphics:
            self._new_page()

    # --- output ----------------------------------------------------------------------------------
    def finish(self) -> None:
        """Emit every page (now that the page count is known) and save the document."""
        total = len(self._pages)
        for number, page in enumerate(self._pages, start=1):
            self._page, self._font = page, None
            if self.notice:
                self._put(MARGIN, self.height - 26, self.notice, BOLD, NOTICE_SIZE)
            if self.footer:
                self._put(MARGIN, 22, self.footer.format(page=number, pages=total), FONT, FOOTER_SIZE)
            if page.graphics:
                self.canvas.addLiteral("\n".join(page.graphics))
            self.canvas.addLiteral("BT\n" + "\n".join(page.text) + "\nET")
            self.canvas.showPage()
        self.canvas.save()
