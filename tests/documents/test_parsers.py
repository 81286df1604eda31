"""Each format becomes text with the right provenance (page, sheet, slide, heading path)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from skills.documents import DocumentIndex
from skills.documents.chunking import chunk_sections
from skills.documents.parsers import parse_file
from tests.documents.corpus import write_docx, write_pdf, write_pptx, write_xlsx


def test_pdf_text_is_kept_per_page(tmp_path: Path) -> None:
    pdf = write_pdf(tmp_path / "a.pdf", [["first page words"], ["the kiln fires at dawn"]])
    parsed = parse_file(str(pdf))
    assert parsed.pages == 2
    assert [s.page for s in parsed.sections] == [1, 2]
    assert "kiln" in " ".join(parsed.sections[1].lines)


def test_docx_keeps_reading_order_headings_lists_and_tables(tmp_path: Path) -> None:
    docx = write_docx(tmp_path / "a.docx", [
        ("h1", "Budget"), ("p", "Intro paragraph."), ("li", "first bullet"),
        ("table", [["Item", "Cost"], ["Paint", "40"]]), ("p", "After the table."),
        ("h2", "Details"), ("p", "Deep text."),
    ])
    parsed = parse_file(str(docx))
    budget = next(s for s in parsed.sections if s.location == "Budget")
    assert budget.lines == ["Budget", "Intro paragraph.", "- first bullet", "Item | Cost",
                            "Paint | 40", "After the table."]
    assert any(s.location == "Budget > Details" and "Deep text." in s.lines
               for s in parsed.sections)


def test_spreadsheet_chunks_each_carry_the_header_row(tmp_path: Path) -> None:
    rows: list[list[object]] = [["Invoice", "Amount", "Client"]]
    rows += [[f"INV-{i:04d}", i * 10, f"Client number {i}"] for i in range(400)]
    xlsx = write_xlsx(tmp_path / "a.xlsx", {"Invoices": rows, "Empty": []})
    parsed = parse_file(str(xlsx))
    chunks = chunk_sections(parsed.sections)
    assert len(chunks) > 3
    assert all(c.text.startswith("Invoice | Amount | Client\n") for c in chunks)
    assert all(c.location.startswith("sheet Invoices, rows ") for c in chunks)
    body = "\n".join(c.text.split("\n", 1)[1] for c in chunks)
    assert body.count("INV-") == 400  # every row once, none lost between chunks


def test_slides_and_notes_per_slide(tmp_path: Path) -> None:
    pptx = write_pptx(tmp_path / "a.pptx", [("Intro", ["hello"], ""),
                                             ("Plan", ["steps"], "speaker secret note")])
    parsed = parse_file(str(pptx))
    assert [s.page for s in parsed.sections] == [1, 2]
    assert "Notes: speaker secret note" in parsed.sections[1].lines


def test_html_text_only_and_headings(tmp_path: Path) -> None:
    html = tmp_path / "a.html"
    html.write_text("<html><head><style>.x{}</style></head><body><h1>Top</h1><p>Visible"
                    " &amp; kept</p><script>alert('hidden')</script><h2>Sub</h2><p>More</p>"
                    "</body></html>", encoding="utf-8")
    parsed = parse_file(str(html))
    text = "\n".join(line for s in parsed.sections for line in s.lines)
    assert "Visible & kept" in text and "alert" not in text and ".x{}" not in text
    assert [s.location for s in parsed.sections if s.lines] == ["Top", "Top > Sub"]


def test_markdown_csv_and_text(tmp_path: Path) -> None:
    md = tmp_path / "a.md"
    md.write_text("# A\n\ntext\n\n```\n# not a heading\n```\n\n## B\n\nmore\n", encoding="utf-8")
    assert [s.location for s in parse_file(str(md)).sections] == ["A", "A > B"]
    csv_file = tmp_path / "a.csv"
    csv_file.write_text("name;city\nAda;Graz\nBo;Split\n", encoding="utf-8")
    section = parse_file(str(csv_file)).sections[0]
    assert section.header == "name | city" and section.lines == ["Ada | Graz", "Bo | Split"]
    latin = tmp_path / "old.txt"
    latin.write_bytes("caf\xe9 cr\xe8me".encode("cp1252"))
    assert parse_file(str(latin)).sections[0].lines == ["café crème"]


def test_chinese_text_is_searchable(
    tmp_path: Path, make_index: Callable[..., DocumentIndex]
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "zh.txt").write_text(
        "会议纪要。\n\n白鹭大桥的维修预算为三百万元，由王伟负责。\n\n其他事项另行通知。", encoding="utf-8"
    )
    (tmp_path / "docs" / "en.txt").write_text("The bridge budget is discussed elsewhere.")
    index = make_index()
    index.add_paths([tmp_path / "docs"])
    hits = index.search("白鹭大桥预算是多少")
    assert hits and hits[0].title == "zh.txt"
    assert index.search("王伟")[0].title == "zh.txt"
    assert index.search("桥")  # a single character still finds text


def test_words_from_a_document_name_count(
    tmp_path: Path, make_index: Callable[..., DocumentIndex]
) -> None:
    (tmp_path / "lease-agreement.txt").write_text("The deposit is two months of rent.")
    (tmp_path / "notes.txt").write_text("Deposit the cheque at the bank. Deposit early.")
    index = make_index()
    index.add_paths([tmp_path])
    assert index.search("deposit")[0].title == "notes.txt"  # more about deposits
    assert index.search("lease agreements deposit")[0].title == "lease-agreement.txt"
    (tmp_path / "bank-statement.txt").write_text("Balance on the account.")
    index.add_paths([tmp_path / "bank-statement.txt"])  # names learnt after a new file
    assert [p.title for p in index.search("statements")] == ["bank-statement.txt"]
