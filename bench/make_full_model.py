"""Write a full-size random-weight Nanbeige4.2-3B GGUF (real dimensions) for the llama.cpp bench."""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.tiny_model import TinyModel, build_model  # noqa: E402

FULL_DIR = ROOT / "bench" / ".cache" / "nanbeige4.2-3b-random"
# MODEL.md: 22 physical layers x 2 loops, hidden 3072, FFN 10752, 48 query / 8 KV heads of 128.
DIMS = {"hidden": 3072, "intermediate": 10752, "layers": 22, "heads": 48, "kv_heads": 8,
        "head_dim": 128, "vocab": 166144}
NEEDED_BYTES = {"q8_0": 4_500_000_000, "f16": 8_400_000_000}


def make_full_model(gguf_type: str = "q8_0", out_dir: Path | None = None) -> TinyModel:
    """Build (or reuse) the full-size model; only the GGUF is written (no MLX folder)."""
    folder = out_dir or FULL_DIR.with_name(f"{FULL_DIR.name}-{gguf_type}")
    free = shutil.disk_usage(folder.parent if folder.parent.exists() else ROOT).free
    if not (folder / "model.gguf").exists() and free < NEEDED_BYTES[gguf_type] * 1.1:
        raise SystemExit(f"Need about {NEEDED_BYTES[gguf_type] / 1e9:.1f} GB free for the "
                         f"{gguf_type} model, have {free / 1e9:.1f} GB")
    folder.parent.mkdir(parents=True, exist_ok=True)
    return build_model(folder, **DIMS, seed=0, gguf_type=gguf_type, write_mlx=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--type", default="q8_0", choices=sorted(NEEDED_BYTES))
    args = parser.parse_args()
    started = time.perf_counter()
    model = make_full_model(args.type)
    size = model.gguf_path.stat().st_size
    print(f"{model.gguf_path}: {size:,} bytes ({size / 2**30:.2f} GiB), "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
