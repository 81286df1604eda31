"""Check a GGUF file before llama.cpp sees it, so a bad file gives a message a person understands."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from backends.errors import ModelCorrupt, ModelNotFound, UnsupportedModel

GGUF_MAGIC = b"GGUF"
MIN_GGUF_BYTES = 32  # magic, version, tensor count, metadata count: anything smaller is cut off


@dataclass(frozen=True)
class GgufSummary:
    """What the backend needs from the header: architecture, loops, template, tensor data size."""

    path: Path
    architecture: str
    num_loops: int
    chat_template: str
    file_type: str
    context_length: int


def inspect_gguf(model_path: str | Path) -> GgufSummary:
    """Read the header; ModelNotFound / ModelCorrupt / UnsupportedModel when it is not usable."""
    path = Path(model_path).expanduser()
    if not path.exists():
        raise ModelNotFound(f"No model file at {path}")
    if path.is_dir():
        raise UnsupportedModel(f"{path} is a folder; llama.cpp needs a single .gguf file")
    _check_magic(path)
    reader = _read(path)
    _check_complete(path, reader)
    return _summary(path, reader)


def _check_magic(path: Path) -> None:
    size = path.stat().st_size
    try:
        with path.open("rb") as handle:
            head = handle.read(4)
    except OSError as exc:
        raise ModelCorrupt(f"{path} cannot be read: {exc.strerror or exc}") from exc
    if head != GGUF_MAGIC:
        raise ModelCorrupt(f"{path.name} is not a GGUF model file (it does not start with the "
                           "GGUF signature); choose a .gguf file")
    if size < MIN_GGUF_BYTES:
        raise ModelCorrupt(f"{path.name} is only {size} bytes: the file is cut off")


def _read(path: Path) -> Any:
    from gguf import GGUFReader

    try:
        return GGUFReader(path)
    except Exception as exc:  # the reader raises ValueError, IndexError, struct.error... on damage
        raise ModelCorrupt(f"{path.name} is truncated or damaged and cannot be read "
                           f"(an interrupted download?): {exc}") from exc


def _check_complete(path: Path, reader: Any) -> None:
    # The header lists every tensor's offset and size; a cut-off download ends before the last.
    size = path.stat().st_size
    need = max((int(t.data_offset) + int(t.n_bytes) for t in reader.tensors), default=0)
    if need > size:
        raise ModelCorrupt(f"{path.name} is truncated: it has {size:,} bytes but its tensors need "
                           f"{need:,}; download it again")
    if not reader.tensors:
        raise ModelCorrupt(f"{path.name} holds no tensors, so it is not a usable model")


def _field(reader: Any, key: str) -> Any:
    found = reader.get_field(key)
    return None if found is None else found.contents()


def _summary(path: Path, reader: Any) -> GgufSummary:
    arch = str(_field(reader, "general.architecture") or "")
    if not arch:
        raise ModelCorrupt(f"{path.name} does not say which architecture it is")
    file_type = _field(reader, "general.file_type")
    return GgufSummary(
        path=path,
        architecture=arch,
        num_loops=int(_field(reader, f"{arch}.num_loops") or 1),
        chat_template=str(_field(reader, "tokenizer.chat_template") or ""),
        file_type=_file_type_name(file_type),
        context_length=int(_field(reader, f"{arch}.context_length") or 0),
    )


def _file_type_name(value: Any) -> str:
    if value is None:
        return ""
    try:
        from gguf import LlamaFileType

        return LlamaFileType(int(value)).name.removeprefix("MOSTLY_").removeprefix("ALL_")
    except ValueError:
        return str(value)
