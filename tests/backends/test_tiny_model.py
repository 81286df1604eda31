"""The tiny test model: its chat template matches Nanbeige's, and its files are what engines expect."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from backends.base import GenerateOptions
from backends.chat_format import ChatTemplate
from tests.support.tiny_model import CHAT_TEMPLATE, TinyModel, build_tiny_model

# The model's own template is reference data in the shared folder beside the checkout.
OFFICIAL = Path(__file__).resolve().parents[3] / "shared" / "nanbeige" / "chat_template.jinja"

TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "Weather for a city, 天气",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]}}}]

CONVERSATIONS: dict[str, list[dict[str, Any]]] = {
    "one question": [{"role": "system", "content": "You are Hearth."},
                     {"role": "user", "content": "Hi"}],
    "no system message": [{"role": "user", "content": "你好"}],
    "history with reasoning": [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "Q1"},
        {"role": "assistant", "content": "<think>\nfirst thoughts\n</think>\n\nA1"},
        {"role": "user", "content": "Q2"},
        {"role": "assistant", "content": "A2", "reasoning_content": "  second thoughts "},
        {"role": "user", "content": [{"type": "text", "text": "Q3 "}, {"type": "image_url"}]},
    ],
    "tool calls and results": [
        {"role": "system", "content": "S"},
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {"role": "assistant", "content": "", "reasoning_content": "two calls",
         "tool_calls": [
             {"type": "function", "function": {"name": "get_weather",
                                               "arguments": {"city": "Paris", "days": 3}}},
             {"type": "function", "function": {"name": "get_weather",
                                               "arguments": {"city": "Rome\nItaly",
                                                             "opts": {"unit": "°C"}}}}]},
        {"role": "tool", "content": "sunny"},
        {"role": "tool", "content": "rain"},
        {"role": "assistant", "content": "Checking one more.",
         "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Oslo"}}}]},
        {"role": "tool", "content": "snow"},
    ],
}


@pytest.fixture(scope="module")
def official() -> ChatTemplate:
    if not OFFICIAL.exists():
        pytest.skip(f"the official Nanbeige template is not at {OFFICIAL}")
    return ChatTemplate(OFFICIAL.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
@pytest.mark.parametrize("tools", [False, True], ids=["no-tools", "tools"])
@pytest.mark.parametrize("thinking", [True, False], ids=["think", "no-think"])
@pytest.mark.parametrize("preserve", [True, False], ids=["preserve", "drop"])
@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_our_template_renders_exactly_like_the_official_one(
        official: ChatTemplate, name: str, tools: bool, thinking: bool, preserve: bool,
        fmt: str) -> None:
    options = GenerateOptions(enable_thinking=thinking, preserve_thinking=preserve,
                              tools=TOOLS if tools else [], tool_call_format=fmt)
    messages = CONVERSATIONS[name]
    assert ChatTemplate(CHAT_TEMPLATE).render(messages, options) == official.render(messages,
                                                                                      options)


def test_template_structure_matches_model_md() -> None:
    ours = ChatTemplate(CHAT_TEMPLATE)
    think = ours.render(CONVERSATIONS["one question"], GenerateOptions())
    assert think.startswith("<|im_start|>system\nYou are Hearth.<|im_end|>\n")
    assert think.endswith("<|im_start|>assistant\n<think>\n")
    no_think = ours.render(CONVERSATIONS["one question"], GenerateOptions(enable_thinking=False))
    assert no_think.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
    tools = ours.render(CONVERSATIONS["tool calls and results"], GenerateOptions(tools=TOOLS))
    assert tools.count("<|im_start|>system") == 1 and "<tools>\n{\"type\": \"function\"" in tools
    # Two consecutive tool results share one user turn; no tool name is rendered.
    assert ("<|im_start|>user\n<tool_response>\nsunny\n</tool_response>\n<tool_response>\nrain"
            "\n</tool_response><|im_end|>") in tools
    assert "<parameter=city>\nRome\nItaly\n</parameter>" in tools
    assert '<parameter=opts>\n{"unit": "°C"}\n</parameter>' in tools


def test_system_message_after_the_first_is_refused() -> None:
    messages = [{"role": "user", "content": "a"}, {"role": "system", "content": "late"}]
    with pytest.raises(ValueError, match="System message must be at the beginning"):
        ChatTemplate(CHAT_TEMPLATE).render(messages, GenerateOptions())


def test_intended_differences_from_the_official_template(official: ChatTemplate) -> None:
    # 1. An assistant turn with content None (tool calls only) renders no text; the official
    #    template prints the word "None" into the prompt.
    messages = [{"role": "user", "content": "q"},
                {"role": "assistant", "content": None,
                 "tool_calls": [{"function": {"name": "f", "arguments": {}}}]}]
    ours = ChatTemplate(CHAT_TEMPLATE).render(messages, GenerateOptions())
    assert "None" not in ours and "</think>\n\n<tool_call>\n<function=f>" in ours
    assert "None\n\n<tool_call>" in official.render(messages, GenerateOptions())
    # 2. A tool result that opens the conversation still opens a user turn.
    first_tool = [{"role": "tool", "content": "r"}]
    assert "<|im_start|>user\n<tool_response>" in ChatTemplate(CHAT_TEMPLATE).render(
        first_tool, GenerateOptions())
    assert "<|im_start|>user" not in official.render(first_tool, GenerateOptions())


def test_builder_writes_both_formats(tiny_model: TinyModel) -> None:
    files = {p.name for p in tiny_model.mlx_dir.iterdir()}
    assert {"config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json",
            "special_tokens_map.json", "generation_config.json"} <= files
    config = json.loads((tiny_model.mlx_dir / "config.json").read_text())
    assert config["model_type"] == "nanbeige" and config["num_loops"] == 2
    assert config["vocab_size"] == tiny_model.vocab_size
    tok_config = json.loads((tiny_model.mlx_dir / "tokenizer_config.json").read_text())
    assert tok_config["chat_template"] == tiny_model.chat_template == CHAT_TEMPLATE


def test_gguf_header_says_nanbeige_with_two_loops(tiny_model: TinyModel) -> None:
    from gguf import GGUFReader

    reader = GGUFReader(tiny_model.gguf_path)
    field = lambda key: reader.get_field(key).contents()  # noqa: E731
    assert field("general.architecture") == "nanbeige"
    assert field("nanbeige.num_loops") == 2
    assert field("nanbeige.skip_loop_final_norm") is False
    assert field("tokenizer.chat_template") == CHAT_TEMPLATE
    assert field("tokenizer.ggml.add_bos_token") is False
    names = {t.name for t in reader.tensors}
    assert {"token_embd.weight", "output_norm.weight", "output.weight", "blk.0.attn_q.weight",
            "blk.1.ffn_down.weight"} <= names


def test_builder_reuses_a_finished_build_and_rebuilds_on_change(tmp_path: Path) -> None:
    first = build_tiny_model(tmp_path / "m")
    stamp = first.gguf_path.stat().st_mtime_ns
    again = build_tiny_model(tmp_path / "m")
    assert again == first and first.gguf_path.stat().st_mtime_ns == stamp
    weights = first.gguf_path.read_bytes()
    other = build_tiny_model(tmp_path / "m", seed=1)
    assert other.gguf_path.read_bytes() != weights  # a new seed gives new weights
    assert build_tiny_model(tmp_path / "n", seed=1).gguf_path.read_bytes() == \
        other.gguf_path.read_bytes()  # and the same seed the same ones


SAMPLES = ["Hello world", "<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n",
           "<think>\nhmm\n</think>\n\n<tool_call>\n<function=f>\n</function>\n</tool_call>",
           "你好，世界！ emoji 🎉 and tabs\tand  double  spaces", " leading space", "<|endoftext|>"]


@pytest.mark.parametrize("text", SAMPLES)
def test_llama_cpp_tokenizes_like_the_hf_tokenizer(tiny_model: TinyModel, text: str,
                                                   tiny_llama: Any) -> None:
    from tokenizers import Tokenizer

    hf = Tokenizer.from_file(str(tiny_model.mlx_dir / "tokenizer.json"))
    ids = tiny_llama.tokenize(text.encode(), add_bos=False, special=True)
    assert ids == hf.encode(text).ids
    # Every special/added token is one token, never split into pieces.
    if text.startswith("<|im_start|>"):
        assert ids[0] == hf.token_to_id("<|im_start|>")


@pytest.fixture(scope="module")
def tiny_llama(tiny_model: TinyModel) -> Any:
    llama_cpp = pytest.importorskip("llama_cpp")
    llm = llama_cpp.Llama(str(tiny_model.gguf_path), n_ctx=256, verbose=False)
    yield llm
    llm.close()
