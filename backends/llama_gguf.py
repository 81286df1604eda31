"""Check a GGUF file before llama.cpp sees it, so a bad file gets a message people understand."""

from __future__ import annotations

import math
import mmap
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from backends.errors import ModelCorrupt, ModelNotFound, UnsupportedModel
from backends.kv_size import ModelShape

GGUF_MAGIC = b"GGUF"
MIN_GGUF_BYTES = 32  # magic, version, tensor count, metadata count: anything smaller is cut off


@dataclass(frozen=True)
class GgufSummary:
    """What the backend needs from the header: architecture, loops, template, memory figures."""

    path: Path
    architecture: str
    num_loops: int
    chat_template: str
    file_type: str
    context_length: int
    fields: dict[str, Any] = field(default_factory=dict, repr=False)


def inspect_gguf(model_path: str | Path) -> GgufSummary:
    """Read the header; ModelNotFound / ModelCorrupt / UnsupportedModel when it is not usable."""
    path = Path(model_path).expanduser()
    if not path.exists():
        raise ModelNotFound(f"No model file at {path}")
    if path.is_dir():
        raise UnsupportedModel(f"{path} is a folder; llama.cpp needs a single .gguf file")
    if not path.is_file():  # a FIFO or a device would block the first read for ever
        raise ModelCorrupt(f"{path} is not a regular file (a pipe or a device), so not a model")
    _check_magic(path)
    header = read_header(path)
    _check_complete(path, header)
    return _summary(path, header)


@dataclass(frozen=True)
class GgufHeader:
    """Scalar metadata (arrays are skipped: only their length is kept) and the tensor table."""

    fields: dict[str, Any]
    tensor_end: int  # byte offset where the last tensor's data ends
    n_tensors: int


def read_header(path: Path) -> GgufHeader:
    """Parse the GGUF header with plain struct reads.

    gguf.GGUFReader decodes every vocabulary string into Python objects, which takes seconds
    for a 166k-token vocabulary; this skips arrays and reads a header in milliseconds."""
    try:
        with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as m:
            return _Cursor(m).header()
    except (struct.error, IndexError, ValueError, UnicodeDecodeError, OverflowError) as exc:
        raise ModelCorrupt(f"{path.name} is truncated or damaged and cannot be read "
                           f"(an interrupted download?): {exc}") from exc


_SCALARS = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q",
            11: "<q", 12: "<d"}
_STRING, _ARRAY = 8, 9
_MAX_COUNT = 1 << 32  # more keys, tensors or array items than this means a damaged header


class _Cursor:
    def __init__(self, data: mmap.mmap) -> None:
        self.data = data
        self.pos = 0

    def unpack(self, fmt: str) -> Any:
        value = struct.unpack_from(fmt, self.data, self.pos)[0]
        self.pos += struct.calcsize(fmt)
        return value

    def count(self) -> int:
        value = int(self.unpack("<Q"))
        if value > _MAX_COUNT:
            raise ValueError(f"implausible count {value}")
        return value

    def string(self) -> str:
        size = self.count()
        if self.pos + size > len(self.data):
            raise ValueError("a string runs past the end of the file")
        text = bytes(self.data[self.pos:self.pos + size]).decode("utf-8")
        self.pos += size
        return text

    def value(self, vtype: int) -> Any:
        if vtype == _STRING:
            return self.string()
        if vtype == _ARRAY:
            item_type, n = self.unpack("<I"), self.count()
            if item_type in _SCALARS and n <= 4096:  # per-layer figures: keep the values
                return [self.unpack(_SCALARS[item_type]) for _ in range(n)]
            if item_type in _SCALARS:
                self.pos += struct.calcsize(_SCALARS[item_type]) * n
            else:
                for _ in range(n):
                    self.value(item_type)
            return n  # only the length: callers never need the vocabulary itself
        return self.unpack(_SCALARS[vtype])

    def header(self) -> GgufHeader:
        self.pos = 8  # magic + version
        n_tensors, n_fields = self.count(), self.count()
        fields = {}
        for _ in range(n_fields):
            key = self.string()
            fields[key] = self.value(self.unpack("<I"))
        ends = [self.tensor_end() for _ in range(n_tensors)]
        align = int(fields.get("general.alignment", 32))
        data_start = (self.pos + align - 1) // align * align
        return GgufHeader(fields, data_start + max(ends, default=0), n_tensors)

    def tensor_end(self) -> int:
        self.string()  # name
        dims = [self.count() for _ in range(self.unpack("<I"))]
        ggml_type, offset = self.unpack("<I"), self.count()
        from gguf import GGML_QUANT_SIZES, GGMLQuantizationType

        block, size = GGML_QUANT_SIZES[GGMLQuantizationType(ggml_type)]
        return offset + math.prod(dims) // block * size


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


def _check_complete(path: Path, header: GgufHeader) -> None:
    # The header lists every tensor's offset and size; a cut-off download ends before the last.
    size = path.stat().st_size
    if header.n_tensors == 0:
        raise ModelCorrupt(f"{path.name} holds no tensors, so it is not a usable model")
    if header.tensor_end > size:
        raise ModelCorrupt(f"{path.name} is truncated: it has {size:,} bytes but its tensors need "
                           f"{header.tensor_end:,}; download it again")


def _summary(path: Path, header: GgufHeader) -> GgufSummary:
    fields = header.fields
    arch = str(fields.get("general.architecture") or "")
    if not arch:
        raise ModelCorrupt(f"{path.name} does not say which architecture it is")
    return GgufSummary(
        path=path,
        architecture=arch,
        num_loops=int(fields.get(f"{arch}.num_loops") or 1),
        chat_template=str(fields.get("tokenizer.chat_template") or ""),
        file_type=_file_type_name(fields.get("general.file_type")),
        context_length=int(fields.get(f"{arch}.context_length") or 0),
        fields=fields,
    )


def _file_type_name(value: Any) -> str:
    if value is None:
        return ""
    try:
        from gguf import LlamaFileType

        return LlamaFileType(int(value)).name.removeprefix("MOSTLY_").removeprefix("ALL_")
    except ValueError:
        return str(value)


def model_shape(summary: GgufSummary, weights_bytes: int) -> ModelShape:
    """The figures memory planning needs, from an already-read header."""
    fields, arch = summary.fields, summary.architecture
    heads = _largest(fields.get(f"{arch}.attention.head_count") or 1)
    kv_heads = _largest(fields.get(f"{arch}.attention.head_count_kv") or heads)
    head_dim = fields.get(f"{arch}.attention.key_length")
    if head_dim is None:
        head_dim = int(fields.get(f"{arch}.embedding_length") or 0) // max(heads, 1)
    return ModelShape(arch, int(fields.get(f"{arch}.block_count") or 1), summary.num_loops,
                      kv_heads, int(head_dim) or 1, weights_bytes, summary.context_length)


def _largest(value: Any) -> int:
    # Some architectures store per-layer head counts as an array; plan for the largest.
    return int(max(value)) if isinstance(value, list) else int(value)
