"""Build random-weight Nanbeige models (GGUF + MLX folder) every engine can run offline."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tests.support.cache_lock import cache_lock

BUILDER_VERSION = 1  # bump whenever the builder's output changes, so cached builds are redone
STAMP_FILE = "BUILD_STAMP.json"
TINY_CONTEXT = 16384
# Two tools switched on (Settings' enabled_skills) instead of all of them: a prompt prefix of about
# 1,800 tiny-model tokens (four 512-token chunks) instead of 10,400, which llama.cpp and MLX read
# in a fraction of the time. For tests of the prefix's life (warmed, saved, restored, taken
# over), not of what is in it.
FEW_SKILLS = ["get_current_time", "convert_units"]

# Our own template with the structure of Nanbeige4.2's official one (system first, `<think>`
# generation prompt, XML or JSON tool calls, tools in the system turn, tool results merged into
# one user turn, preserve_thinking). tests/backends/test_tiny_model.py renders both and compares.
# Deliberate differences: `content: None` renders as "" (the official prints "None"), and a tool
# result that opens the conversation still opens a user turn.
CHAT_TEMPLATE = r"""
{#- Hearth test template: Nanbeige4.2's chat structure, written for the tiny test model. -#}
{%- macro text_of(c) -%}
  {%- if c is none -%}
  {%- elif c is string -%}{{- c -}}
  {%- elif c is iterable and c is not mapping -%}
    {%- for part in c -%}
      {%- if part is string -%}{{- part -}}
      {%- elif part is mapping and part.type == 'text' -%}{{- part.text -}}
      {%- elif part is mapping and part.type in ['image', 'image_url', 'video', 'video_url', 'audio', 'audio_url', 'input_audio'] -%}
        {{- "<reminder>You are unable to process this " ~ (part.type | replace('_url', '') | replace('input_', '')) ~ " because you don't have multi-modal input ability. Try different methods.</reminder>" -}}
      {%- endif -%}
    {%- endfor -%}
  {%- else -%}{{- c -}}
  {%- endif -%}
{%- endmacro -%}
{%- set fmt = tool_call_format if tool_call_format is defined else 'xml' -%}
{%- set has_system = messages | length > 0 and messages[0].get('role', '') == 'system' -%}
{%- set system_text = text_of(messages[0].content) if has_system else '' -%}
{#- The system turn always comes first; tools are described inside it. -#}
{%- if tools -%}
  {{- '<|im_start|>system\n' -}}
  {%- if has_system -%}{{- system_text ~ '\n\n' -}}
  {%- else -%}{{- '你是一位工具函数调用专家，你会得到一个问题和一组可能的工具函数。根据问题，你需要进行一个或多个函数/工具调用以实现目的，请尽量尝试探索通过工具解决问题。\n如果没有一个函数可以使用，请直接使用自然语言回复用户。\n如果给定的问题缺少函数所需的参数，请使用自然语言进行提问，向用户询问必要信息。\n如果调用结果已经足够回答用户问题，请对历史结果进行总结，使用自然语言回复用户。' -}}
  {%- endif -%}
  {{- '# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>' -}}
  {%- for tool in tools -%}{{- '\n' ~ (tool | tojson) -}}{%- endfor -%}
  {{- '\n</tools>\n\n' -}}
  {%- if fmt == 'json' -%}
    {{- 'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>' -}}
  {%- else -%}
    {{- 'For each function call, output the function name and arguments within the following XML format:\n<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n<parameter=example_parameter_2>\nThis is the value for the second parameter\nthat can span\nmultiple lines\n</parameter>\n</function>\n</tool_call>' -}}
  {%- endif -%}
  {{- '<|im_end|>\n' -}}
{%- elif has_system -%}
  {{- '<|im_start|>system\n' ~ system_text ~ '<|im_end|>\n' -}}
{%- else -%}
  {{- '<|im_start|>system\n你是南北阁，一款由BOSS直聘自主研发并训练的专业大语言模型。<|im_end|>\n' -}}
{%- endif -%}
{#- Find the last real user query: only reasoning before it may be dropped. -#}
{%- set ns = namespace(last_query=messages | length - 1, searching=true) -%}
{%- for m in messages | reverse -%}
  {%- if ns.searching and m.get('role', '') == 'user' -%}
    {%- set t = text_of(m.content) -%}
    {%- if not (t.startswith('<tool_response>') and t.endswith('</tool_response>')) -%}
      {%- set ns.searching = false -%}
      {%- set ns.last_query = messages | length - 1 - loop.index0 -%}
    {%- endif -%}
  {%- endif -%}
{%- endfor -%}
{%- for m in messages -%}
  {%- set role = m.get('role', '') -%}
  {%- set content = text_of(m.content) -%}
  {%- if role == 'system' -%}
    {%- if not loop.first -%}{{- raise_exception('System message must be at the beginning.') -}}{%- endif -%}
  {%- elif role == 'assistant' -%}
    {%- set reasoning = '' -%}
    {%- set answer = content -%}
    {%- if m.reasoning_content is string -%}
      {%- set reasoning = m.reasoning_content -%}
    {%- elif '</think>' in content -%}
      {%- set reasoning = content.split('</think>')[0].rstrip('\n').split('<think>')[-1].lstrip('\n') -%}
      {%- set answer = content.split('</think>')[-1].lstrip('\n').rstrip('\n') -%}
    {%- endif -%}
    {%- set drop = preserve_thinking is defined and preserve_thinking is false and loop.index0 < ns.last_query -%}
    {{- '<|im_start|>assistant\n<think>\n' ~ ('\n' if drop else (reasoning | trim) ~ '\n') ~ '</think>\n\n' ~ answer -}}
    {%- if m.tool_calls and m.tool_calls is iterable and m.tool_calls is not mapping -%}
      {%- for call in m.tool_calls -%}
        {%- set f = call.function if call.function is defined else call -%}
        {%- if fmt == 'json' -%}
          {%- if answer or not loop.first -%}{{- '\n' -}}{%- endif -%}
          {{- '<tool_call>\n{"name": "' ~ f.name ~ '", "arguments": ' ~ (f.arguments if f.arguments is string else f.arguments | tojson) ~ '}\n</tool_call>' -}}
        {%- else -%}
          {%- if not loop.first -%}{{- '\n' -}}{%- elif answer | trim -%}{{- '\n\n' -}}{%- endif -%}
          {{- '<tool_call>\n<function=' ~ f.name ~ '>\n' -}}
          {%- if f.arguments is defined -%}
            {%- for key, value in f.arguments | items -%}
              {{- '<parameter=' ~ key ~ '>\n' ~ (value if value is string else value | tojson) ~ '\n</parameter>\n' -}}
            {%- endfor -%}
          {%- endif -%}
          {{- '</function>\n</tool_call>' -}}
        {%- endif -%}
      {%- endfor -%}
    {%- endif -%}
    {{- '<|im_end|>\n' -}}
  {%- elif role == 'tool' -%}
    {#- Consecutive tool results share one user turn. -#}
    {%- if loop.first or loop.previtem.get('role', '') != 'tool' -%}{{- '<|im_start|>user' -}}{%- endif -%}
    {{- '\n<tool_response>\n' ~ content ~ '\n</tool_response>' -}}
    {%- if loop.last or loop.nextitem.get('role', '') != 'tool' -%}{{- '<|im_end|>\n' -}}{%- endif -%}
  {%- elif role -%}
    {{- '<|im_start|>' ~ role ~ '\n' ~ content ~ '<|im_end|>\n' -}}
  {%- endif -%}
{%- endfor -%}
{#- The model's output starts inside the reasoning; Non-Think mode closes it at once. -#}
{%- if add_generation_prompt -%}
  {{- '<|im_start|>assistant\n<think>\n' -}}
  {%- if enable_thinking is defined and enable_thinking is false -%}{{- '\n</think>\n\n' -}}{%- endif -%}
{%- endif -%}
"""

SPECIAL_TOKENS = ["<|im_start|>", "<|im_end|>", "<|endoftext|>"]  # control: hidden when decoding
ADDED_TOKENS = ["<think>", "</think>", "<tool_call>", "</tool_call>"]  # kept in decoded text
UNK = "<unk>"

# GGUF token types (llama.cpp's llama_token_type).
_NORMAL, _CONTROL, _USER_DEFINED, _UNUSED = 1, 3, 4, 5


@dataclass(frozen=True)
class TinyModel:
    """One built model: the same random weights as a GGUF and as an MLX (HF-layout) folder."""

    gguf_path: Path
    mlx_dir: Path
    chat_template: str
    vocab_size: int


@dataclass(frozen=True)
class Dims:
    """Model shape; num_loops is always 2, like Nanbeige4.2."""

    hidden: int
    intermediate: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    num_loops: int = 2
    rope_theta: float = 70_000_000.0
    rms_eps: float = 1e-5
    context: int = 4096


def build_tiny_model(out_dir: Path, seed: int = 0) -> TinyModel:
    """The tiny model the tests use: 2 physical layers x 2 loops, GQA, a 512-token BPE vocab."""
    # 16K context: Hearth's full system prompt with every skill's tools is ~6,400 tokens in this
    # small vocabulary, and `hearth ask` must run with all skills on.
    return build_model(out_dir, hidden=64, intermediate=128, layers=2, heads=4, kv_heads=2,
                       head_dim=16, vocab=512, seed=seed, context=TINY_CONTEXT)


def build_model(out_dir: Path, *, hidden: int, intermediate: int, layers: int, heads: int,
                kv_heads: int, head_dim: int, vocab: int, seed: int, gguf_type: str = "f32",
                write_mlx: bool = True, context: int = 4096) -> TinyModel:
    """Write (or reuse) a random-weight Nanbeige model under out_dir.

    gguf_type is "f32", "f16" or "q8_0" (quantized in Python by gguf-py); context is the trained
    context the files declare. Reuses out_dir when its stamp says it was built by this builder
    version with the same arguments."""
    dims = Dims(hidden, intermediate, layers, heads, kv_heads, head_dim, vocab, context=context)
    out_dir = Path(out_dir)
    model = TinyModel(out_dir / "model.gguf", out_dir / "mlx", CHAT_TEMPLATE, vocab)
    stamp = {"version": BUILDER_VERSION, "dims": dims.__dict__, "seed": seed,
             "gguf_type": gguf_type, "mlx": write_mlx,
             "template": hashlib.sha256(CHAT_TEMPLATE.encode()).hexdigest()}
    with cache_lock(out_dir):
        if not _built(out_dir / STAMP_FILE, stamp):
            _build(out_dir, dims, seed, gguf_type, write_mlx, stamp)
    return model


def _built(stamp_path: Path, stamp: dict[str, Any]) -> bool:
    return stamp_path.exists() and json.loads(stamp_path.read_text()) == stamp


def _build(out_dir: Path, dims: Dims, seed: int, gguf_type: str, write_mlx: bool,
           stamp: dict[str, Any]) -> None:
    # Build beside the target and swap it in, so a process killed mid-build never leaves a
    # half-written model behind (the stamp is written last, inside the new folder).
    work = out_dir.parent / f".{out_dir.name}.building-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    tokenizer = _make_tokenizer(dims.vocab)
    _write_gguf(work / "model.gguf", dims, tokenizer, seed, gguf_type)
    if write_mlx:
        _write_mlx(work / "mlx", dims, tokenizer, seed)
    (work / STAMP_FILE).write_text(json.dumps(stamp))
    _swap_in(work, out_dir)


def _swap_in(work: Path, out_dir: Path) -> None:
    old = out_dir.parent / f".{out_dir.name}.old-{os.getpid()}"
    if out_dir.exists():
        out_dir.rename(old)
    work.rename(out_dir)
    shutil.rmtree(old, ignore_errors=True)


# ----------------------------------------------------------------------------- tokenizer

_WORDS = ("the of and to in is you that it he was for on are as with his they at be this have "
          "from or one had by word but not what all were we when your can said there use an "
          "each which she do how their if will up other about out many then them these so some "
          "her would make like him into time has look two more write go see number no way could "
          "people my than first water been call who oil its now find long down day did get come "
          "made may part weather city Paris London Tokyo calendar event meeting file document "
          "search today tomorrow reason answer think tool function parameter")


def _corpus() -> list[str]:
    """A little English, digits, JSON, code and Chinese, so the BPE learns some merges."""
    words = _WORDS.split()
    lines = []
    for i in range(400):
        picked = [words[(i * 7 + j * 13) % len(words)] for j in range(8 + i % 5)]
        lines.append(" ".join(picked).capitalize() + f". {i} + {i * 3} = {i * 4}.")
        call = {"name": words[i % len(words)], "arguments": {"n": i, "ok": i % 2 == 0}}
        lines.append(json.dumps(call))
    lines += ["你是南北阁，一款专业大语言模型。请使用自然语言回复用户。今天天气很好。"] * 20
    lines += ["<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
              "</function>\n</tool_call>"] * 20
    lines += ["def main():\n    return [x * 2 for x in range(10)]  # comment\n"] * 10
    return lines


def _make_tokenizer(vocab: int) -> Any:
    """A byte-level BPE (any text tokenizes) carrying Nanbeige's special and added tokens."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    extra = len(SPECIAL_TOKENS) + len(ADDED_TOKENS)
    trainer = trainers.BpeTrainer(
        vocab_size=max(vocab - extra, 300), special_tokens=[UNK], show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(_corpus(), trainer=trainer)
    tok.add_special_tokens([AddedToken(t, special=True, normalized=False) for t in SPECIAL_TOKENS])
    tok.add_tokens([AddedToken(t, special=False, normalized=False) for t in ADDED_TOKENS])
    if tok.get_vocab_size() > vocab:
        raise ValueError(f"vocab {vocab} is too small for the tokenizer ({tok.get_vocab_size()})")
    return tok


def _gguf_vocab(tokenizer: Any, vocab: int) -> tuple[list[str], list[int], list[str]]:
    """Token strings, token types and merges for tokenizer.ggml.*, padded to `vocab` entries."""
    spec = json.loads(tokenizer.to_str())
    tokens = [""] * vocab
    types = [_UNUSED] * vocab
    for text, idx in spec["model"]["vocab"].items():
        tokens[idx], types[idx] = text, _NORMAL
    for added in spec["added_tokens"]:
        tokens[added["id"]] = added["content"]
        types[added["id"]] = _CONTROL if added["special"] else _USER_DEFINED
    for idx in range(vocab):
        if not tokens[idx]:
            tokens[idx] = f"[PAD{idx}]"  # padding rows, as convert_hf_to_gguf.py names them
    merges = [m if isinstance(m, str) else " ".join(m) for m in spec["model"]["merges"]]
    return tokens, types, merges


# ----------------------------------------------------------------------------- weights

def _specs(dims: Dims) -> list[tuple[str, tuple[int, ...]]]:
    """Every HF-layout tensor name and shape, in file order."""
    h, q_out, kv_out = dims.hidden, dims.heads * dims.head_dim, dims.kv_heads * dims.head_dim
    specs: list[tuple[str, tuple[int, ...]]] = [("model.embed_tokens.weight", (dims.vocab, h))]
    for i in range(dims.layers):
        p = f"model.layers.{i}."
        specs += [
            (p + "input_layernorm.weight", (h,)),
            (p + "self_attn.q_proj.weight", (q_out, h)),
            (p + "self_attn.k_proj.weight", (kv_out, h)),
            (p + "self_attn.v_proj.weight", (kv_out, h)),
            (p + "self_attn.o_proj.weight", (h, q_out)),
            (p + "post_attention_layernorm.weight", (h,)),
            (p + "mlp.gate_proj.weight", (dims.intermediate, h)),
            (p + "mlp.up_proj.weight", (dims.intermediate, h)),
            (p + "mlp.down_proj.weight", (h, dims.intermediate)),
        ]
    return specs + [("model.norm.weight", (h,)), ("lm_head.weight", (dims.vocab, h))]


def _weight(name: str, shape: tuple[int, ...], index: int, seed: int) -> np.ndarray:
    """One tensor from its own seeded stream, so it can be made alone and in any order."""
    rng = np.random.default_rng([seed, index])
    if len(shape) == 1:  # norms near 1, so activations stay in a sane range
        return 1.0 + 0.1 * rng.standard_normal(shape, dtype=np.float32)
    w = rng.standard_normal(shape, dtype=np.float32)
    if name == "model.embed_tokens.weight":
        return w
    # ~unit-variance outputs; lm_head larger so next-token logits are not a flat near-tie.
    w *= np.float32((3.0 if name == "lm_head.weight" else 1.0) / np.sqrt(shape[1]))
    return w


def _permute(w: np.ndarray, n_head: int) -> np.ndarray:
    """Reorder q/k rows from HF's rotate-half RoPE layout to llama.cpp's interleaved one."""
    return (w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:])
            .swapaxes(1, 2).reshape(w.shape))


_GGUF_NAMES = {
    "input_layernorm": "attn_norm", "self_attn.q_proj": "attn_q", "self_attn.k_proj": "attn_k",
    "self_attn.v_proj": "attn_v", "self_attn.o_proj": "attn_output",
    "post_attention_layernorm": "ffn_norm", "mlp.gate_proj": "ffn_gate", "mlp.up_proj": "ffn_up",
    "mlp.down_proj": "ffn_down",
}


def _gguf_name(name: str) -> str:
    """HF tensor name -> llama.cpp tensor name."""
    top = {"model.embed_tokens.weight": "token_embd.weight",
           "model.norm.weight": "output_norm.weight", "lm_head.weight": "output.weight"}
    if name in top:
        return top[name]
    _, _, layer, rest = name.split(".", 3)
    return f"blk.{layer}.{_GGUF_NAMES[rest.removesuffix('.weight')]}.weight"


def _to_gguf_layout(name: str, w: np.ndarray, dims: Dims) -> np.ndarray:
    """q/k permuted as convert_hf_to_gguf.py does for Llama; everything else unchanged."""
    if name.endswith("self_attn.q_proj.weight"):
        return _permute(w, dims.heads)
    if name.endswith("self_attn.k_proj.weight"):
        return _permute(w, dims.kv_heads)
    return w


def _encode(w: np.ndarray, gguf_type: str) -> tuple[np.ndarray, Any]:
    """The bytes to store and their GGML type; norms (1-D) always stay f32, as llama.cpp wants."""
    from gguf import GGMLQuantizationType as T
    from gguf import quants

    if w.ndim == 1 or gguf_type == "f32":
        return w.astype(np.float32), T.F32
    if gguf_type == "f16":
        return w.astype(np.float16), T.F16
    if gguf_type == "q8_0":
        # Row chunks keep the temporaries small when a full-size (2 GB) embedding is quantized.
        rows = [quants.quantize(w[i:i + 4096], T.Q8_0) for i in range(0, w.shape[0], 4096)]
        return np.concatenate(rows), T.Q8_0
    raise ValueError(f"unsupported gguf_type {gguf_type!r} (use f32, f16 or q8_0)")


def _write_gguf(path: Path, dims: Dims, tokenizer: Any, seed: int, gguf_type: str) -> None:
    """Stream the GGUF tensor by tensor, so a full-size model never sits in memory at once."""
    import gguf

    writer = gguf.GGUFWriter(str(path), "nanbeige")
    _write_gguf_metadata(writer, dims, tokenizer, gguf_type)
    specs = _specs(dims)
    for name, shape in specs:
        # Encode one row to learn the stored size without making the whole tensor yet.
        row = np.zeros(shape if len(shape) == 1 else (1, shape[1]), np.float32)
        probe, raw = _encode(row, gguf_type)
        rows = shape[0] if len(shape) == 2 else 1
        byte_shape = (rows, probe.shape[-1]) if len(shape) == 2 else probe.shape
        writer.add_tensor_info(_gguf_name(name), byte_shape, probe.dtype, probe.nbytes * rows,
                               raw_dtype=raw)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    for index, (name, shape) in enumerate(specs):
        w = _to_gguf_layout(name, _weight(name, shape, index, seed), dims)
        writer.write_tensor_data(_encode(w, gguf_type)[0])
    writer.close()


def _write_gguf_metadata(writer: Any, dims: Dims, tokenizer: Any, gguf_type: str) -> None:
    import gguf

    writer.add_name("Hearth tiny Nanbeige (random weights)")
    writer.add_file_type({"f32": gguf.LlamaFileType.ALL_F32, "f16": gguf.LlamaFileType.MOSTLY_F16,
                          "q8_0": gguf.LlamaFileType.MOSTLY_Q8_0}[gguf_type])
    writer.add_context_length(dims.context)
    writer.add_embedding_length(dims.hidden)
    writer.add_block_count(dims.layers)  # physical layers; the loader multiplies by num_loops
    writer.add_feed_forward_length(dims.intermediate)
    writer.add_head_count(dims.heads)
    writer.add_head_count_kv(dims.kv_heads)
    writer.add_key_length(dims.head_dim)
    writer.add_value_length(dims.head_dim)
    writer.add_rope_dimension_count(dims.head_dim)
    writer.add_rope_freq_base(dims.rope_theta)
    writer.add_layer_norm_rms_eps(dims.rms_eps)
    writer.add_vocab_size(dims.vocab)
    writer.add_uint32("nanbeige.num_loops", dims.num_loops)
    writer.add_bool("nanbeige.skip_loop_final_norm", False)
    tokens, types, merges = _gguf_vocab(tokenizer, dims.vocab)
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("gpt-2")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(tokenizer.token_to_id("<|im_start|>"))
    writer.add_eos_token_id(tokenizer.token_to_id("<|im_end|>"))
    writer.add_eot_token_id(tokenizer.token_to_id("<|im_end|>"))
    writer.add_pad_token_id(tokenizer.token_to_id(UNK))
    writer.add_unk_token_id(tokenizer.token_to_id(UNK))
    writer.add_add_bos_token(False)  # the template already starts with <|im_start|>
    writer.add_add_eos_token(False)
    writer.add_add_space_prefix(False)
    writer.add_chat_template(CHAT_TEMPLATE)


# ----------------------------------------------------------------------------- MLX folder

def _write_mlx(folder: Path, dims: Dims, tokenizer: Any, seed: int) -> None:
    """config.json + model.safetensors + tokenizer files, as mlx_lm.load expects (HF layout)."""
    from safetensors.numpy import save_file

    folder.mkdir(parents=True)
    tensors = {name: _weight(name, shape, i, seed) for i, (name, shape) in enumerate(_specs(dims))}
    save_file(tensors, str(folder / "model.safetensors"), metadata={"format": "mlx"})
    im_start, im_end = tokenizer.token_to_id("<|im_start|>"), tokenizer.token_to_id("<|im_end|>")
    config = {
        "architectures": ["NanbeigeForCausalLM"], "model_type": "nanbeige",
        "hidden_size": dims.hidden, "intermediate_size": dims.intermediate,
        "num_hidden_layers": dims.layers, "num_attention_heads": dims.heads,
        "num_key_value_heads": dims.kv_heads, "head_dim": dims.head_dim,
        "vocab_size": dims.vocab, "rms_norm_eps": dims.rms_eps, "rope_theta": dims.rope_theta,
        "max_position_embeddings": dims.context, "tie_word_embeddings": False,
        "attention_bias": False, "mlp_bias": False, "num_loops": dims.num_loops,
        "skip_loop_final_norm": False, "bos_token_id": im_start, "eos_token_id": im_end,
        "torch_dtype": "float32",
    }
    _dump(folder / "config.json", config)
    _dump(folder / "generation_config.json", {
        "bos_token_id": im_start, "eos_token_id": [im_end, tokenizer.token_to_id("<|endoftext|>")],
        "do_sample": True, "temperature": 0.6, "top_p": 0.95, "top_k": 20,
    })
    tokenizer.save(str(folder / "tokenizer.json"))
    _write_tokenizer_config(folder, tokenizer)


def _write_tokenizer_config(folder: Path, tokenizer: Any) -> None:
    decoder = {}
    for text in [UNK, *SPECIAL_TOKENS, *ADDED_TOKENS]:
        decoder[str(tokenizer.token_to_id(text))] = {
            "content": text, "lstrip": False, "rstrip": False, "normalized": False,
            "single_word": False, "special": text not in ADDED_TOKENS,
        }
    _dump(folder / "tokenizer_config.json", {
        "tokenizer_class": "PreTrainedTokenizerFast", "add_bos_token": False,
        "add_eos_token": False, "bos_token": "<|im_start|>", "eos_token": "<|im_end|>",
        "pad_token": UNK, "unk_token": UNK, "model_max_length": 262144,
        "clean_up_tokenization_spaces": False, "added_tokens_decoder": decoder,
        "chat_template": CHAT_TEMPLATE,
    })
    _dump(folder / "special_tokens_map.json", {
        "bos_token": "<|im_start|>", "eos_token": "<|im_end|>", "pad_token": UNK,
        "unk_token": UNK, "additional_special_tokens": ["<|endoftext|>"],
    })


def _dump(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def copy_without_template(source: Path, target: Path, template: str = "",
                          architecture: str = "nanbeige") -> None:
    """A copy of a GGUF without its chat template (as base models and some conversions come),
    or with `template` in its place; another `architecture` renames the file's own (such a copy
    is read, not loaded)."""
    import gguf

    reader = gguf.GGUFReader(source)
    writer = gguf.GGUFWriter(str(target), architecture)
    for name, field in reader.fields.items():
        if name.startswith("GGUF.") or name in ("general.architecture", "tokenizer.chat_template"):
            continue
        sub_type = field.types[-1] if field.types[0] == gguf.GGUFValueType.ARRAY else None
        key = architecture + name[len("nanbeige"):] if name.startswith("nanbeige.") else name
        writer.add_key_value(key, field.contents(), field.types[0], sub_type=sub_type)
    if template:
        writer.add_chat_template(template)
    for tensor in reader.tensors:
        writer.add_tensor(tensor.name, np.array(tensor.data), raw_dtype=tensor.tensor_type)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
