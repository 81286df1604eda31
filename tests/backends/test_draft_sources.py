"""Draft sources: the prompt's sheets as the tables an answer writes, and tool calls' frames and values."""

from __future__ import annotations

from backends.draft_sources import MAX_CHARS, call_values, draft_texts, renderings
from backends.pass_costs import PassCosts
from backends.prompt_lookup import PromptLookup

SHEET = "region,quarter,revenue\nNorth,Q1,12500\nSouth,Q2,9800\n"
TABLE = ("| region | quarter | revenue |\n|---|---|---|\n| North | Q1 | 12500 |\n"
         "| South | Q2 | 9800 |\n")
WRITE_FILE = {"type": "function", "function": {
    "name": "write_file", "parameters": {"type": "object", "properties": {
        "path": {"type": "string"}, "title": {"type": "string"}}}}}


def test_a_csv_sheet_in_the_prompt_is_rendered_as_a_markdown_table() -> None:
    assert renderings(f"Here is the sheet:\n{SHEET}\nWrite it as a table.") == [TABLE]
    # Tabs and semicolons alike; spaces around a cell are not part of it.
    assert renderings(SHEET.replace(",", "\t")) == [TABLE]
    assert renderings(SHEET.replace(",", " ; ")) == [TABLE]


def test_a_quoted_cell_keeps_its_comma_and_a_bar_in_a_cell_is_escaped() -> None:
    sheet = 'name,city\n"Smith, John",Leeds\nAnn,A|B\n'
    assert renderings(sheet) == ["| name | city |\n|---|---|\n| Smith, John | Leeds |\n"
                                 "| Ann | A\\|B |\n"]


def test_a_markdown_table_in_the_prompt_is_rendered_as_csv() -> None:
    assert renderings(f"Convert:\n{TABLE}") == [SHEET]


def test_prose_and_lines_of_unequal_fields_give_no_table() -> None:
    prose = ("Dear Ann, thanks for the notes.\nI read them, twice, and agree.\n"
             "One line, alone, with commas.")
    assert renderings(prose) == []
    assert renderings("a,b\n") == []  # one line is no table


def test_a_huge_sheet_gives_its_first_rows_within_the_budget() -> None:
    rows = "\n".join(f"row{i},{i * 7},{i * 13}" for i in range(20_000))
    texts = renderings(f"id,a,b\n{rows}\n")
    assert len(texts) == 1 and MAX_CHARS - 40 < len(texts[0]) <= MAX_CHARS
    lines = texts[0].splitlines()
    assert lines[:3] == ["| id | a | b |", "|---|---|---|", "| row0 | 0 | 0 |"]
    assert all(line.endswith("|") for line in lines)  # whole rows only


def test_when_the_budget_is_short_the_latest_sheet_is_kept() -> None:
    old = "x,y\n" + "\n".join(f"{i},{i}" for i in range(3000))
    texts = renderings(f"{old}\n\nNow this one:\n{SHEET}")
    assert texts[-1] == TABLE and sum(map(len, texts)) <= MAX_CHARS


def test_with_tools_the_call_frame_and_the_values_the_question_names_are_sources() -> None:
    question = ("Please create a file named report_north.md in the folder /home/anna/Reports "
                "with the title 'Quarterly report, North'.")
    texts = draft_texts(question, [WRITE_FILE])
    assert texts[0] == ("<tool_call>\n<function=write_file>\n<parameter=path>\n</parameter>\n"
                        "<parameter=title>\n</parameter>\n</function>\n</tool_call>\n")
    for value in ("report_north.md", "/home/anna/Reports", "/home/anna/Reports/report_north.md",
                  "Quarterly report, North"):
        assert f"\n{value}\n</parameter>\n" in texts  # on a line of its own, as a call has it
    assert draft_texts(question) == []  # no tools offered: no call to draft
    assert draft_texts(question, [WRITE_FILE], "json") == []  # the XML format only


def test_apostrophes_and_closing_tags_are_no_values() -> None:
    assert call_values("It's Ann's file, isn't it? </parameter> and </function>") == []


# -- the drafter, given the sources ----------------------------------------------------------

FREE = PassCosts({1: 1.0, 16: 1.0}, learn=False)  # a pass of 16 costs one: drafts are sent
CPU = {1: 1.0, 4: 2.7, 8: 4.1, 12: 5.3, 16: 6.8}  # as measured on 2 cores (bench/RESULTS.md)


def chars(text: str) -> list[int]:
    """A tokenizer of one token a character: enough for what the drafter does with them."""
    return [ord(c) for c in text]


def text(tokens: list[int]) -> str:
    return "".join(map(chr, tokens))


def test_a_drafter_given_a_csv_prompt_drafts_the_markdown_table_that_answer_writes() -> None:
    prompt = (f"Sheet:\n{SHEET}As a Markdown table:\n| region | quarter | revenue |\n"
              "|---|---|---|\n| North |")
    plain = PromptLookup(chars(prompt), FREE)
    assert not text(plain.propose(15)).startswith(" Q1 | 12500 |")  # the sheet has `,Q1,`
    sourced = PromptLookup(chars(prompt), FREE, [chars(t) for t in renderings(prompt)])
    assert text(sourced.propose(15)) == " Q1 | 12500 |\n|"


def test_a_draft_from_a_source_stops_where_the_source_ends() -> None:
    lookup = PromptLookup(chars("the answer: alpha be"), FREE, [chars("alpha beta"), chars("zz")])
    assert text(lookup.propose(15)) == "ta"  # nothing of the next source, no separator


def test_where_a_source_ends_a_shorter_match_that_goes_on_gives_the_draft() -> None:
    # The answer ends with a whole value ("alpha beta", a source that ends there); in the
    # prompt, "beta" was followed by more: what a source ends with says nothing of what
    # follows it, so the prompt's continuation is drafted.
    lookup = PromptLookup(chars("x beta gamma\n the answer: alpha beta"), FREE,
                          [chars("alpha beta")])
    assert text(lookup.propose(6)) == " gamma"


def test_a_match_of_a_whole_sources_start_is_drafted_on_the_cpu_at_once() -> None:
    # The answer has just begun a line with a value's first tokens, as the value source has
    # them: all it could agree with does, a strong sign even where checks cost (the CPU),
    # though only 3 tokens match (`\nQx`: as a match in the prompt, too weak to send).
    value = "Qx report, North region"
    prompt = f"Title: '{value}'.\n<parameter=title>\nQx"
    lookup = PromptLookup(chars(prompt), PassCosts(CPU, learn=False),
                          [chars(f"\n{value}\n</parameter>\n")])
    assert text(lookup.propose(15)).startswith(" report")
    assert not PromptLookup(chars(prompt), PassCosts(CPU, learn=False)).propose(15)


def test_in_a_long_sheet_the_row_that_matches_furthest_back_is_found() -> None:
    # 200 rows [i, 7, 8, 9, 1000 + i]: the answer's last two tokens (7, 8) occur in each; the
    # row whose first token agrees too (5) is far behind the latest 64 occurrences.
    rows = [t for i in range(200) for t in (i, 7, 8, 9, 1000 + i)]
    lookup = PromptLookup([*rows, 5, 7, 8], FREE)
    assert lookup.propose(2) == [9, 1005]


def test_with_the_tool_offered_a_value_the_question_names_is_drafted_with_its_end() -> None:
    question = "Create notes.md in /home/anna with the title 'Plans for May'.\n"
    prompt = f"{question}<tool_call>\n<function=write_file>\n<parameter=title>\nPl"
    sources = [chars(t) for t in draft_texts(prompt, [WRITE_FILE])]
    assert text(PromptLookup(chars(prompt), FREE, sources).propose(15)) == "ans for May\n</p"
    # The value's end differs in the question (a quote): without the sources, the draft has it.
    assert text(PromptLookup(chars(prompt), FREE).propose(15)).startswith("ans for May'.")
