"""Generated test documents (PDF, DOCX, XLSX, PPTX, MD, HTML, TXT, CSV) with known answers."""

from __future__ import annotations

import os
import random
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pypdf import PdfReader, PdfWriter

from tests.support.text_pdf import pdf_bytes


def _pdf_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def write_pdf(path: Path, pages: list[list[str]]) -> Path:
    """A minimal valid PDF (Helvetica, one text line per entry); no PDF library needed."""
    objects: list[bytes] = []
    n_pages = len(pages)
    font_id = 3
    page_ids = [4 + 2 * i for i in range(n_pages)]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    kids = " ".join(f"{pid} 0 R" for pid in page_ids)
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for i, lines in enumerate(pages):
        ops = ["BT /F1 10 Tf 13 TL 50 760 Td"]
        ops += [f"({_pdf_escape(line)}) Tj T*" for line in lines]
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1", errors="replace")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font"
            f" << /F1 {font_id} 0 R >> >> /Contents {page_ids[i] + 1} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    path.write_bytes(pdf_bytes(objects))
    return path


def write_docx(path: Path, blocks: list[tuple[str, object]]) -> Path:
    """blocks: ("h1"/"h2", text), ("p", text), ("li", text), ("table", rows)."""
    import docx

    document = docx.Document()
    for kind, value in blocks:
        if kind in ("h1", "h2", "h3"):
            document.add_heading(str(value), level=int(kind[1]))
        elif kind == "li":
            document.add_paragraph(str(value), style="List Bullet")
        elif kind == "table":
            rows = list(value)  # type: ignore[call-overload]
            table = document.add_table(rows=len(rows), cols=len(rows[0]))
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = str(cell)
        else:
            document.add_paragraph(str(value))
    document.save(str(path))
    return path


def write_xlsx(path: Path, sheets: dict[str, list[list[object]]]) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(str(path))
    return path


def write_pptx(path: Path, slides: list[tuple[str, list[str], str]]) -> Path:
    """slides: (title, bullet lines, notes)."""
    from pptx import Presentation

    deck = Presentation()
    for title, bullets, notes in slides:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        body = slide.placeholders[1].text_frame
        body.text = bullets[0] if bullets else ""
        for line in bullets[1:]:
            body.add_paragraph().text = line
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
    deck.save(str(path))
    return path


# --- the retrieval collection ------------------------------------------------------------------

ADJ = ("Amber Cobalt Crimson Silver Golden Ivory Jade Onyx Scarlet Azure Copper Violet Olive"
       " Coral Indigo Saffron Topaz Granite Maple Cedar").split()
NOUN = ("Falcon Harbor Bridge Tower Meadow Canyon Beacon Orchard Summit Lagoon Quarry Pier"
        " Glacier Forge Mill Reservoir Tunnel Depot Citadel Ridge").split()
FIRST = "Anna Boris Chen Dara Emil Farah Gita Hugo Ines Jonas Kemal Lena Mateo Nora Omar".split()
LAST = "Keller Novak Sato Brandt Moreau Silva Lindqvist Okafor Rossi Varga Haddad Berg".split()
CITY = "Lisbon Tallinn Porto Ghent Graz Turku Bergen Lyon Brno Malmo Split Utrecht Basel".split()
COMPANY = "Nordstahl Veritek Alucore Bricktop Ferrum Lumacast Stonewell Kravmet Hexaline".split()
FILLER = ("the committee reviewed general progress and noted that documentation remains"
          " consistent with the quarterly plan while routine maintenance continues across"
          " several departments and teams share weekly updates about logistics training"
          " procurement reporting and community outreach activities").split()

# attribute: (fact template, question template, value maker)
ATTRS: dict[str, tuple[str, str, Callable[[random.Random], str]]] = {
    "budget": ("The approved budget for {p} is {v} euros.",
               "How much budget was approved for {p}?", lambda r: f"{r.randint(10, 999)},000"),
    "deadline": ("{p} must be completed before {v}.",
                 "What is the completion deadline of {p}?",
                 lambda r: f"{r.randint(1, 28)} {r.choice(['March', 'June', 'October'])} 2027"),
    "manager": ("{v} manages {p} day to day.", "Who is the manager of {p}?",
                lambda r: f"{r.choice(FIRST)} {r.choice(LAST)}"),
    "supplier": ("Steel for {p} is delivered by {v}.",
                 "Which company delivers the steel for {p}?", lambda r: r.choice(COMPANY)),
    "site": ("Construction of {p} takes place in {v}.",
             "Where does the construction of {p} take place?", lambda r: r.choice(CITY)),
    "staff": ("{p} employs {v} engineers.", "How many engineers are employed on {p}?",
              lambda r: str(r.randint(3, 90))),
    "warranty": ("The warranty on {p} equipment lasts {v} years.",
                 "How long does the warranty for {p} equipment last?",
                 lambda r: str(r.randint(2, 12))),
    "inspection": ("Safety inspections of {p} happen every {v} weeks.",
                   "How often are safety inspections of {p} held?",
                   lambda r: str(r.randint(2, 9))),
}

ZH_NAMES = ["青龙水库", "白鹭大桥", "金沙码头", "紫竹园区", "翠湖隧道", "红枫广场"]
ZH_ATTRS = {
    "预算": ("{p}的预算为{v}万元。", "{p}的预算是多少？"),
    "负责人": ("{p}的负责人是{v}。", "谁是{p}的负责人？"),
    "完工": ("{p}计划于{v}完工。", "{p}什么时候完工？"),
}
ZH_VALUES = {"预算": ["三百", "四百五十", "八百"], "负责人": ["王伟", "李娜", "张敏"],
             "完工": ["二〇二七年五月", "二〇二八年一月", "二〇二七年九月"]}


@dataclass(frozen=True)
class Question:
    text: str
    document: str  # file name
    page: int | None = None  # PDF page / slide number
    location: str = ""  # heading path or sheet name (contained in the passage location)
    answer: str = ""

    def matches(self, passage_document: str, passage_page: int | None, location: str) -> bool:
        if Path(passage_document).name != self.document:
            return False
        if self.page is not None:
            return passage_page == self.page
        return self.location.casefold() in location.casefold()


def _filler(r: random.Random, words: int = 40) -> str:
    return " ".join(r.choice(FILLER) for _ in range(words)).capitalize() + "."


class _Facts:
    """Hands out unique project names and facts, and records the questions."""

    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        names = [f"{a} {n}" for a in ADJ for n in NOUN]
        self.r.shuffle(names)
        self.names = iter(names)
        self.questions: list[Question] = []

    def project(self) -> str:
        return next(self.names) + " project"

    def facts(self, p: str, attrs: list[str], doc: str, page: int | None = None,
              location: str = "") -> list[str]:
        lines = []
        for attr in attrs:
            fact, question, make = ATTRS[attr]
            value = make(self.r)
            lines.append(fact.format(p=p, v=value))
            self.questions.append(Question(question.format(p=p), doc, page, location, value))
        return lines


def build_collection(folder: Path, seed: int = 4) -> list[Question]:
    """At least 50 documents in every format; returns questions with known answer places."""
    folder.mkdir(parents=True, exist_ok=True)
    f = _Facts(seed)
    attrs = list(ATTRS)
    for i in range(20):
        _pdf_doc(folder, f, attrs, i)
    for i in range(10):
        _docx_doc(folder, f, attrs, i)
    for i in range(6):
        _xlsx_doc(folder, f, i)
    for i in range(6):
        _pptx_doc(folder, f, attrs, i)
    for i in range(8):
        _text_doc(folder, f, attrs, i)
    _chinese_docs(folder, f)
    rng = random.Random(seed)
    english = [q for q in f.questions if q.text.isascii()]
    chinese = [q for q in f.questions if not q.text.isascii()]
    return rng.sample(english, 100 - min(8, len(chinese))) + chinese[:8]


def _pdf_doc(folder: Path, f: _Facts, attrs: list[str], i: int) -> None:
    name = f"report-{i:02d}.pdf"
    p = f.project()
    r = f.r
    pages = []
    order = r.sample(attrs, len(attrs))  # each attribute once per document: one true answer
    for number in range(1, 5):
        lines = [f"{p} status report, page {number}", _filler(r, 14)]
        lines += f.facts(p, order[2 * number - 2 : 2 * number], name, page=number)
        lines += [_filler(r, 14), f"Notes on {p}: {_filler(r, 8)}"]
        pages.append(lines)
    write_pdf(folder / name, pages)


def _docx_doc(folder: Path, f: _Facts, attrs: list[str], i: int) -> None:
    name = f"plan-{i:02d}.docx"
    p = f.project()
    r = f.r
    blocks: list[tuple[str, object]] = [("h1", f"Plan for {p}"), ("p", _filler(r))]
    order = r.sample(attrs, len(attrs))
    for number, heading in enumerate(("Scope", "Schedule", "Resources")):
        blocks.append(("h2", heading))
        blocks.append(("p", " ".join(f.facts(p, order[number : number + 1], name,
                                             location=f"Plan for {p} > {heading}"))))
        blocks.append(("li", _filler(r, 10)))
        blocks.append(("table", [["Item", "Owner"], [_filler(r, 3), r.choice(FIRST)]]))
    write_docx(folder / name, blocks)


def _xlsx_doc(folder: Path, f: _Facts, i: int) -> None:
    name = f"register-{i:02d}.xlsx"
    r = f.r
    budget_rows: list[list[object]] = [["Project", "Approved budget (EUR)", "Approved by"]]
    site_rows: list[list[object]] = [["Project", "Construction site city", "Start year"]]
    for _ in range(25):
        p = f.project()
        budget, site = f"{r.randint(10, 999)},000", r.choice(CITY)
        budget_rows.append([p, budget, r.choice(LAST)])
        site_rows.append([p, site, r.randint(2020, 2027)])
        if r.random() < 0.15:
            f.questions.append(Question(f"What approved budget does the register list for {p}?",
                                        name, None, "sheet Budgets", budget))
            f.questions.append(Question(f"In which city is the construction site of {p}?",
                                        name, None, "sheet Sites", site))
    write_xlsx(folder / name, {"Budgets": budget_rows, "Sites": site_rows})


def _pptx_doc(folder: Path, f: _Facts, attrs: list[str], i: int) -> None:
    name = f"review-{i:02d}.pptx"
    p = f.project()
    r = f.r
    slides = []
    order = r.sample(attrs, len(attrs))
    for number in range(1, 4):
        facts = f.facts(p, order[2 * number - 2 : 2 * number], name, page=number)
        slides.append((f"{p} review {number}", [facts[0], _filler(r, 8)], facts[1]))
    write_pptx(folder / name, slides)


def _text_doc(folder: Path, f: _Facts, attrs: list[str], i: int) -> None:
    kind = ("md", "html", "txt", "csv")[i % 4]
    name = f"memo-{i:02d}.{kind}"
    p = f.project()
    r = f.r
    order = r.sample(attrs, len(attrs))
    if kind == "md":
        text = f"# Memo on {p}\n\n{_filler(r)}\n"
        for number, heading in enumerate(("Costs", "People")):
            text += f"\n## {heading}\n\n" + " ".join(
                f.facts(p, order[number : number + 1], name, location=f"Memo on {p} > {heading}")
            ) + f"\n\n{_filler(r)}\n"
    elif kind == "html":
        text = f"<html><head><title>x</title><style>p {{}}</style></head><body><h1>{p}</h1>"
        for number, heading in enumerate(("Budget", "Team")):
            facts = f.facts(p, order[number : number + 1], name, location=f"{p} > {heading}")
            text += f"<h2>{heading}</h2><p>{facts[0]}</p><p>{_filler(r)}</p>"
        text += "<script>var hidden = 'ignore me';</script></body></html>"
    elif kind == "txt":
        text = "\n\n".join([_filler(r), *f.facts(p, r.sample(attrs, 1), name), _filler(r)])
    else:
        text = "project,city,engineers\n" + "\n".join(
            f"{f.project()},{r.choice(CITY)},{r.randint(3, 90)}" for _ in range(10)
        )
    (folder / name).write_text(text, encoding="utf-8")


def _chinese_docs(folder: Path, f: _Facts) -> None:
    for i, project in enumerate(ZH_NAMES):
        name = f"zh-{i:02d}.md"
        text = f"# {project}简报\n\n本文件记录项目的基本情况和进展。\n"
        for attr, (fact, question) in ZH_ATTRS.items():
            value = f.r.choice(ZH_VALUES[attr])
            text += f"\n## {attr}\n\n{fact.format(p=project, v=value)}其他事项按计划推进。\n"
            f.questions.append(Question(question.format(p=project), name, None,
                                        f"{project}简报 > {attr}", value))
        (folder / name).write_text(text, encoding="utf-8")


# --- bad input ----------------------------------------------------------------------------------


def _bomb(path: Path, member: str) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr(member, b"\0" * (30 * 1024 * 1024))  # ~30 KB compressed, 1000x
    return path


def bad_folder(folder: Path) -> dict[str, str]:
    """Bad files -> a word the recorded reason must contain."""
    folder.mkdir()
    good = write_pdf(folder / "good.pdf", [["the heron nests by the weir"]])
    writer = PdfWriter(clone_from=PdfReader(str(good)))
    writer.encrypt("secret", algorithm="AES-256")
    writer.write(str(folder / "locked.pdf"))
    (folder / "truncated.pdf").write_bytes(good.read_bytes()[:180])
    (folder / "garbage.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(4000))
    _bomb(folder / "bomb.docx", "word/document.xml")
    _bomb(folder / "bomb.xlsx", "xl/worksheets/sheet1.xml")
    (folder / "fake.docx").write_bytes(b"this is not a zip archive at all")
    with open(folder / "huge.txt", "wb") as handle:
        handle.truncate(2 * 1024**3)  # sparse: 2 GB on paper, no disk used
    (folder / "junk.txt").write_bytes(bytes(range(256)) * 64)
    (folder / "loop-a.md").symlink_to(folder / "loop-b.md")
    (folder / "loop-b.md").symlink_to(folder / "loop-a.md")
    os.mkfifo(folder / "pipe.txt")  # opening it would block forever
    outside = folder.parent / "outside.txt"
    outside.write_text("private notes outside the chosen folder")
    (folder / "escape.txt").symlink_to(outside)
    return {
        "locked.pdf": "encrypted", "truncated.pdf": "damaged", "garbage.pdf": "damaged",
        "bomb.docx": "zip bomb", "bomb.xlsx": "zip bomb", "fake.docx": "not a zip",
        "huge.txt": "too large", "junk.txt": "binary", "loop-a.md": "link loop",
        "loop-b.md": "link loop", "pipe.txt": "not a regular file",
        "escape.txt": "outside the chosen folder",
    }
