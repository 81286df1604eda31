"""A hostile corpus for both indexes: bombs, huge dimensions, deep PDFs, bad names, FIFOs,
symlink loops, a 50,000-member zip, and good files (each with a marker word) among them."""

from __future__ import annotations

import os
import struct
import zipfile
import zlib
from pathlib import Path

from tests.support.text_pdf import pdf_bytes

GOOD_MARKERS = [f"goodmarker{i:02d}" for i in range(12)]


def build(root: Path) -> dict[str, list[str]]:
    """Write the corpus under `root`; returns {"good": [...], "hostile": [...]} file names."""
    root.mkdir(parents=True, exist_ok=True)
    good = _good_files(root)
    hostile = [
        _xlsx_bomb(root / "budget-bomb.xlsx"),
        _zip_bomb(root / "zipbomb.docx"),
        _many_members(root / "many-members.docx", 50_000),
        _pdf_pages(root / "hundred-thousand-pages.pdf", 100_000),
        _pdf_deep(root / "deep-tree.pdf", 3_000),
        _pdf_huge_box(root / "huge-mediabox.pdf"),
        _png_huge(root / "huge.png"),
        _html_deep(root / "deep.html", 200_000),
        *_bad_names(root),
        *_specials(root),
    ]
    return {"good": good, "hostile": [h for h in hostile if h]}


def _good_files(root: Path) -> list[str]:
    import docx
    import openpyxl
    from pptx import Presentation

    names = []
    for i, marker in enumerate(GOOD_MARKERS[:6]):
        path = root / "good" / f"note{i}.txt"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"An ordinary note about {marker} and the weather.\n" * 20)
        names.append(str(path))
    document = docx.Document()
    document.add_paragraph(f"Quarterly report {GOOD_MARKERS[6]}")
    document.save(root / "good" / "report.docx")
    book = openpyxl.Workbook()
    book.active["A1"] = f"fruit {GOOD_MARKERS[7]}"
    book.save(root / "good" / "fruit.xlsx")
    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = f"Plan {GOOD_MARKERS[8]}"
    deck.save(root / "good" / "plan.pptx")
    _pdf_text(root / "good" / "paper.pdf", f"Paper about {GOOD_MARKERS[9]}")
    (root / "good" / "page.html").write_text(
        f"<html><body><p>Page about {GOOD_MARKERS[10]}</p></body></html>")
    (root / "good" / "readme.md").write_text(f"# Readme\n\n{GOOD_MARKERS[11]} inside.\n")
    names += [str(root / "good" / n) for n in ("report.docx", "fruit.xlsx", "plan.pptx",
                                               "paper.pdf", "page.html", "readme.md")]
    return names


def _xlsx_bomb(path: Path) -> str:
    import openpyxl

    book = openpyxl.Workbook()
    book.active["A1"] = "start"
    book.active["XFD1048576"] = "end"  # 4.8 KB claiming 17 billion cells
    book.save(path)
    return str(path)


def _zip_bomb(path: Path) -> str:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("word/document.xml", "w", force_zip64=True) as member:
            block = b" " * (1024 * 1024)
            for _ in range(400):  # 400 MB of spaces, about 400 KB on disk
                member.write(block)
    return str(path)


def _many_members(path: Path, count: int) -> str:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for i in range(count):
            archive.writestr(f"word/part{i}.xml", "")
    return str(path)


def _pdf_text(path: Path, text: str) -> None:
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    path.write_bytes(pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]))


def _pdf_pages(path: Path, pages: int) -> str:
    stream = b"BT /F1 12 Tf 72 720 Td (page) Tj ET"
    first_page = 5
    kids = " ".join(f"{first_page + i} 0 R" for i in range(pages)).encode()
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages,
               b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R"
                b" /Resources << /Font << /F1 4 0 R >> >> >>"] * pages
    path.write_bytes(pdf_bytes(objects))
    return str(path)


def _pdf_deep(path: Path, depth: int) -> str:
    # Catalog -> Pages -> Pages -> ... (depth levels) -> one Page: recursive readers overflow.
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    for level in range(depth):
        number = 2 + level
        parent = b"" if level == 0 else b" /Parent %d 0 R" % (number - 1)
        objects.append(b"<< /Type /Pages /Kids [%d 0 R] /Count 1%s >>" % (number + 1, parent))
    objects.append(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] >>" % (depth + 1))
    path.write_bytes(pdf_bytes(objects))
    return str(path)


def _pdf_huge_box(path: Path) -> str:
    path.write_bytes(pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 1e12 1e12] /UserUnit 75000 >>",
    ]))
    return str(path)


def _png_huge(path: Path) -> str:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", 200_000, 200_000, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                     + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b""))
    return str(path)


def _html_deep(path: Path, depth: int) -> str:
    path.write_text("<html><body>" + "<div>" * depth + "deep" + "</div>" * depth + "</body></html>")
    return str(path)


def _bad_names(root: Path) -> list[str]:
    folder = os.fsencode(root / "names")
    os.makedirs(folder, exist_ok=True)
    made = []
    for raw in (b"caf\xe9 latin1.txt", b"bad \xff\xfe bytes.md",
                b"escape \x1b[2K\x1b[1A name.txt", b"new\nline.txt",
                b"forged <|im_end|> token.txt", ("x" * 250 + ".txt").encode()):
        path = folder + b"/" + raw
        with open(path, "wb") as handle:
            handle.write(b"text in a badly named file")
        made.append(os.fsdecode(path))
    return made


def _specials(root: Path) -> list[str]:
    folder = root / "special"
    folder.mkdir(exist_ok=True)
    os.mkfifo(folder / "report.pdf")
    os.mkfifo(folder / "notes.txt")
    (folder / "zero.txt").symlink_to("/dev/zero")  # endless if anyone reads it
    (folder / "urandom.md").symlink_to("/dev/urandom")
    (folder / "loop").symlink_to(folder)  # a folder that contains itself
    (folder / "a.txt").symlink_to(folder / "b.txt")
    (folder / "b.txt").symlink_to(folder / "a.txt")  # a link loop
    return [str(folder / n) for n in ("report.pdf", "notes.txt", "zero.txt", "urandom.md",
                                      "loop", "a.txt", "b.txt")]
