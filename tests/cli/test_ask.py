"""`hearth ask` and `hearth chat`: the scripted model for the loop, the tiny models for real."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from app.core.failures import EXIT_CODES, FailureKind
from app.main import main
from tests.support.model_output import GREETING, TIME_CALL, answer, call
from tests.support.scripted_cli import ask_json, open_history, script_file, write_settings
from tests.support.tiny_model import FEW_SKILLS

DELETE_CALL = call("delete_event", uid="dentist-42")


def test_ask_json_streams_tool_calls_results_and_done_last(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = script_file(tmp_path, TIME_CALL, answer("It is late in Tokyo."), "Tokyo time")
    code, lines, err = ask_json(capsys, "time in Tokyo?", "--engine", "scripted", "--script", file)
    assert code == 0, err
    kinds = [line["type"] for line in lines]
    assert kinds[0] == "reasoning" and kinds[-1] == "done"
    assert {"type": "tool_call", "name": "get_current_time",
            "arguments": {"timezone": "Asia/Tokyo"}} in lines
    result = next(line for line in lines if line["type"] == "tool_result")
    assert result["ok"] is True and "Asia/Tokyo" in result["text"]
    assert "".join(line["text"] for line in lines if line["type"] == "text") == (
        "It is late in Tokyo.")
    done = lines[-1]
    assert done["finish_reason"] == "stop"
    assert set(done["usage"]) == {"prompt_tokens", "cached_prompt_tokens", "completion_tokens"}
    store = open_history()
    try:
        saved = store.messages(done["conversation_id"])
        assert [m.role for m in saved] == ["user", "assistant", "tool", "assistant"]
        assert store.get_conversation(done["conversation_id"]).title == "Tokyo time"  # type: ignore[union-attr]
    finally:
        store.close()


def test_ask_continues_a_conversation_by_id_prefix(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = script_file(tmp_path, GREETING, "Hello")
    _, first, _ = ask_json(capsys, "hello", "--engine", "scripted", "--script", file)
    conv = first[-1]["conversation_id"]
    file = script_file(tmp_path, answer("You said hello."))
    code, second, err = ask_json(capsys, "what did I say?", "--engine", "scripted", "--script",
                                 file, "--conversation", conv[:8], "--print-prompt")
    assert code == 0, err
    assert second[-1]["conversation_id"] == conv
    prompt = second[0]
    assert prompt["type"] == "prompt" and "Hello! How can I help?" in prompt["text"]
    assert prompt["text"].startswith("<|im_start|>system\nYou are Hearth")


@pytest.mark.parametrize("yes", [True, False])
def test_ask_confirmations_follow_yes(yes: bool, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    file = script_file(tmp_path, DELETE_CALL, answer("Done."), "Dentist")
    flags = ["--yes"] if yes else []
    code, lines, _ = ask_json(capsys, "cancel my dentist appointment", "--engine", "scripted",
                              "--script", file, *flags)
    assert code == 0
    confirm = next(line for line in lines if line["type"] == "confirm")
    assert confirm["name"] == "delete_event" and confirm["arguments"] == {"uid": "dentist-42"}
    result = next(line for line in lines if line["type"] == "tool_result")
    assert result["ok"] is False  # approved: no such event; declined: not run at all
    if yes:
        assert "declined" not in result["text"]
    else:
        assert "declined" in result["text"]


def test_ask_docs_restricts_the_turn_to_document_skills(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = script_file(tmp_path, answer("Nothing in your documents."), "Docs")
    code, lines, _ = ask_json(capsys, "what is the budget?", "--docs", "--print-prompt",
                              "--engine", "scripted", "--script", file)
    system = lines[0]["text"].split("<|im_end|>")[0]
    # The template lists the tools; the system text has the document rules only when the
    # document skills are on (they are the only ones here).
    assert code == 0 and "[n]" in system and "read_document" in system
    assert "get_current_time" not in system and "documents only" in system


def test_ask_text_mode_prints_the_answer_on_stdout(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = script_file(tmp_path, TIME_CALL, answer("Late."), "T")
    assert main(["ask", "time?", "--engine", "scripted", "--script", file, "--think"]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == "Late."
    assert "[thinking] The user wants the time" in captured.err
    assert "[tool] get_current_time" in captured.err and "[tool ok]" in captured.err


@pytest.mark.parametrize(("argv", "message", "kind"), [
    (["--model", "/nowhere/model.gguf"], "No model at /nowhere/model.gguf", "model_bad"),
    (["--engine", "scripted", "--script", "/nowhere/script.json"], "cannot read the script",
     "bad_input"),
    (["--engine", "scripted", "--script", "SCRIPT", "--conversation", "zzzz"], "zzzz",
     "bad_input"),
    (["--engine", "remote"], "needs a server URL", "engine_failed"),
])
def test_ask_bad_input_is_one_line_on_stderr(argv: list[str], message: str, kind: str,
                                             tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    argv = [script_file(tmp_path, "x") if a == "SCRIPT" else a for a in argv]
    code = main(["ask", "hello", *argv])
    err = capsys.readouterr().err
    assert code == EXIT_CODES[FailureKind(kind)]
    assert err.startswith("hearth: ") and message in err and err.count("\n") == 1
    assert "Traceback" not in err


def test_ask_reports_an_engine_failure(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    file = script_file(tmp_path)  # nothing queued: the scripted engine fails the generation
    code, lines, _ = ask_json(capsys, "hello", "--engine", "scripted", "--script", file)
    assert lines[-1]["type"] == "error" and "no output queued" in lines[-1]["message"]
    assert lines[-1]["kind"] == "engine_failed" and code == EXIT_CODES[FailureKind.ENGINE_FAILED]


def test_chat_runs_turns_new_conversations_and_confirmations(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    file = script_file(tmp_path, GREETING, "Greeting", DELETE_CALL, answer("It is gone."),
                  answer("A fresh start."), "Fresh")
    monkeypatch.setattr("sys.stdin", io.StringIO(
        "hello\n/bogus\ndelete the dentist\ny\n/new\nstart over\n/quit\n"))
    assert main(["chat", "--engine", "scripted", "--script", file, "--think"]) == 0
    captured = capsys.readouterr()
    assert "Hello! How can I help?" in captured.out and "It is gone." in captured.out
    assert "A fresh start." in captured.out
    assert "Unknown command /bogus" in captured.err
    assert "Allow this?" in captured.err and "[tool] delete_event" in captured.err
    store = open_history()
    try:
        conversations = store.list_conversations()
        assert len(conversations) == 2
        first = min(conversations, key=lambda c: c.created)
        tool = next(m for m in store.messages(first.id) if m.role == "tool")
        assert "declined" not in tool.content  # the person typed y
    finally:
        store.close()


# -- the real engines, on the tiny random-weight models ------------------------------------

def _real_ask(capsys: pytest.CaptureFixture[str], hearth_home: Path, model: Path,
              engine: str) -> tuple[int, list[dict[str, Any]], str]:
    # Every skill on, as a user has it: the tiny model's 16K context holds the whole prompt.
    return ask_json(capsys, "hello", "--model", str(model), "--engine", engine,
                    "--max-tokens", "6", "--no-think", "--print-prompt")


def test_ask_runs_for_real_on_the_tiny_gguf(tiny_model: Any, hearth_home: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = _real_ask(capsys, hearth_home, tiny_model.gguf_path, "llama")
    assert code == 0, err
    prompt = lines[0]["text"]
    # The model's own template: tools inside the system turn, Non-Think generation prompt.
    assert prompt.startswith("<|im_start|>system\nYou are Hearth")
    for tool in ("get_current_time", "search_documents", "search_files", "add_event"):
        assert f'"name": "{tool}"' in prompt
    assert prompt.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    done = lines[-1]
    assert done["type"] == "done" and done["usage"]["prompt_tokens"] > 100
    assert 0 < done["usage"]["completion_tokens"] <= 6 * 8  # per step, up to the step limit


def test_ask_runs_for_real_on_the_tiny_mlx_model(tiny_model: Any, hearth_home: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("mlx_lm")
    # Two tools: the whole tool set's prompt is the GGUF test's subject (the same rendering);
    # MLX on a CPU reads its 10,400 tiny-model tokens for half a minute or more.
    write_settings(hearth_home, enabled_skills=FEW_SKILLS)
    code, lines, err = _real_ask(capsys, hearth_home, tiny_model.mlx_dir, "mlx")
    assert code == 0, err
    assert lines[0]["text"].startswith("<|im_start|>system\nYou are Hearth")
    assert lines[-1]["type"] == "done" and lines[-1]["usage"]["prompt_tokens"] > 100


def test_chat_runs_for_real_on_the_tiny_gguf(tiny_model: Any, hearth_home: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    write_settings(hearth_home, enabled_skills=["get_current_time"])
    monkeypatch.setattr("sys.stdin", io.StringIO("hello\n/quit\n"))
    code = main(["chat", "--model", str(tiny_model.gguf_path), "--engine", "llama",
                 "--max-tokens", "4", "--no-think", "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and lines[-1]["type"] == "done"
    store = open_history()
    try:
        saved = store.messages(lines[-1]["conversation_id"])
        assert saved[0].content == "hello" and saved[-1].role == "assistant"
        assert saved[-1].status == "complete" and saved[-1].engine == "llama"
    finally:
        store.close()


def test_ctrl_c_while_waiting_cancels_the_turn() -> None:
    from app.cli.ask.render import Renderer
    from app.cli.ask.waiting import wait_for_turn
    from app.core.assistant import TurnHandle

    class Interrupted(TurnHandle):
        def wait(self, timeout: float | None = None) -> bool:
            if not self.cancelled:
                raise KeyboardInterrupt
            return True

    handle = Interrupted("c1")
    assert wait_for_turn(handle, Renderer(json_mode=True, policy="deny")) is False
    assert handle.cancelled


# -- engine choice and thinking follow what the person chose (issue 16, defect 7) ---------

def test_ask_thinks_only_when_settings_or_the_command_say_so(
        tmp_path: Path, hearth_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def prompt(*argv: str) -> str:
        file = script_file(tmp_path, "Hi.", "T")
        assert main(["ask", "hi", "--engine", "scripted", "--script", file, "--print-prompt",
                     "--json", *argv]) == 0
        return str(json.loads(capsys.readouterr().out.splitlines()[0])["text"])

    no_think = "<|im_start|>assistant\n<think>\n\n</think>\n\n"
    write_settings(hearth_home, thinking_default=False)
    assert prompt().endswith(no_think)  # Settings has Think off: so does the CLI
    assert not prompt("--think").endswith(no_think)
    write_settings(hearth_home, thinking_default=True)
    assert not prompt().endswith(no_think)
    assert prompt("--no-think").endswith(no_think)


def test_ask_model_runs_that_model_even_with_a_server_saved(
        tiny_model: Any, hearth_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_settings(hearth_home, engine="auto", remote_url="http://127.0.0.1:9/v1",
             enabled_skills=["get_current_time"])
    code, lines, err = ask_json(capsys, "hello", "--model", str(tiny_model.gguf_path),
                                "--max-tokens", "2", "--no-think")
    assert code == 0, err  # port 9 answers nobody: the saved server was not used
    saved = open_history()
    try:
        assert saved.messages(lines[-1]["conversation_id"])[-1].engine == "llama"
    finally:
        saved.close()


# -- limits and prompts across the steps of one answer (issue 24) --------------------------

def test_max_tokens_bounds_the_whole_answer_across_its_steps(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tool step takes 45 tokens of the 60 asked for: the answer after the tool gets the
    rest, not 60 more."""
    file = script_file(tmp_path, TIME_CALL, answer("word " * 100), "Tokyo time")
    code, lines, err = ask_json(capsys, "time in Tokyo?", "--engine", "scripted", "--script",
                                file, "--max-tokens", "60")
    assert code == 0, err
    assert any(line["type"] == "tool_result" for line in lines)
    done = lines[-1]
    assert done["finish_reason"] == "length"
    assert 45 < done["usage"]["completion_tokens"] <= 60


def test_print_prompt_prints_every_request_of_the_turn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A step, the step after the tool, and the request that closes reasoning which ended
    without an answer: three requests, three prompts, the last one ending in the closed
    reasoning it continues."""
    file = script_file(tmp_path, TIME_CALL, "Thinking it over.\n</think>\n\n", "It is 21:04.",
                  "Tokyo time")
    code, lines, err = ask_json(capsys, "time in Tokyo?", "--engine", "scripted", "--script",
                                file, "--print-prompt")
    assert code == 0, err
    prompts = [line["text"] for line in lines if line["type"] == "prompt"]
    assert len(prompts) == 3
    assert "Asia/Tokyo" in prompts[1] and prompts[2].endswith("</think>\n\n")
