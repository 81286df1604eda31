#!/usr/bin/env bash
# Issue 28 item 2 on a GPU: llama.cpp built with CUDA from the llama-cpp-python source Hearth
# installs, the full-size random Nanbeige written there, then bench_batch.py (4 x 128 against
# one, both drafting; and --plain) and bench_batch_person.py, as on the CPU.
#
#   bash bench/gpu_batch.sh prepare     # here, with PyPI: sources and wheels, ~15 MB
#   device run: command "bash bench/gpu_batch.sh run", carry ["bench/.cache/device"],
#               timeout_s 600; if the build ran out of time, the same again at once (the
#               machine is still warm and keeps bench/.cache/gpu: the build resumes, the model
#               is kept)
#
# The device machine (the `device` tool, nvidia-h200 kind) has nvcc, CMake, ninja,
# scikit-build-core, numpy, jinja2 and tokenizers, and no network: the rest travels in
# bench/.cache/device. Everything it makes stays in bench/.cache/gpu; figures land in $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
DEV=bench/.cache/device
WORK=bench/.cache/gpu
# What Hearth's runtime needs that the device image lacks (pure-Python wheels).
WHEELS=(gguf diskcache)

installed() {  # NAME==VERSION of the package this checkout's .venv runs
    .venv/bin/python -c "import importlib.metadata as m; print('$1==' + m.version('$1'))"
}

prepare() {
    local py=.venv/bin/python
    rm -rf "$DEV" && mkdir -p "$DEV/whl" "$DEV/dl"
    $py -m pip download -q --no-deps --no-binary :all: "$(installed llama-cpp-python)" -d "$DEV/dl"
    for name in "${WHEELS[@]}"; do
        $py -m pip download -q --no-deps --only-binary :all: "$(installed "$name")" -d "$DEV/whl"
    done
    tar -xzf "$DEV"/dl/llama_cpp_python-*.tar.gz -C "$DEV/dl"
    local src
    src=$(echo "$DEV"/dl/llama_cpp_python-*/)
    # What a library build never reads (vocabularies, docs, tests, tools other than mtmd, which
    # llama-cpp-python builds, a copy of llama.cpp's git history): 217 MB down to ~8 MB.
    rm -rf "$src"/{.git,docs,examples,tests,docker} \
        "$src"/vendor/llama.cpp/{models,docs,benches,examples,tests,scripts,conversion,pocs} \
        "$src"/vendor/llama.cpp/{gguf-py,media,app,ci,skills,requirements}
    find "$src"/vendor/llama.cpp/tools -mindepth 1 -maxdepth 1 ! -name mtmd \
        ! -name CMakeLists.txt -exec rm -rf {} +
    tar -czf "$DEV/llama_src.tar.gz" -C "$src/.." "$(basename "$src")"
    rm -rf "$DEV/dl"
    du -sh "$DEV"
}

build() {  # llama-cpp-python with CUDA for this GPU only, into $WORK/site
    [ -f "$WORK/site/llama_cpp/__init__.py" ] && return
    [ -d "$WORK/src" ] || { mkdir -p "$WORK/src" && tar -xzf "$DEV/llama_src.tar.gz" -C "$WORK/src"; }
    local arch
    arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d .)
    # CMake finds nvcc on PATH, else where CUDA installs it.
    export CUDACXX="${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
    CMAKE_ARGS="-DGGML_CUDA=on -DCMAKE_CUDA_ARCHITECTURES=${arch}-real -DGGML_NATIVE=on" \
    CMAKE_BUILD_PARALLEL_LEVEL=$(nproc) \
        python3 -m pip install -q --no-index --no-deps --no-build-isolation --no-cache-dir \
        --target "$WORK/site" -C build-dir="$PWD/$WORK/build" "$WORK"/src/llama_cpp_python-*/
}

model() {  # the full-size random Nanbeige4.2-3B Q8_0 (kept when complete: its stamp says so)
    python3 bench/make_full_model.py
}

run() {
    : "${OUT:?run on the device machine, where OUT is set}"
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target "$WORK/wheels" "$DEV"/whl/*.whl
    export PYTHONPATH="$PWD/$WORK/site:$PWD/$WORK/wheels:$PWD" PYTHONUNBUFFERED=1
    nvidia-smi --query-gpu=name,memory.total --format=csv | tee "$OUT/gpu.txt"
    model >"$OUT/model.txt" 2>&1 &  # one core writes the model while the others compile
    local writing=$!
    SECONDS=0
    build >"$OUT/build.txt" 2>&1 || { tail -40 "$OUT/build.txt"; exit 1; }
    echo "built in ${SECONDS} s"
    wait "$writing" || { tail -20 "$OUT/model.txt"; exit 1; }
    python3 bench/bench_batch.py --repeats 3 2>&1 | tee "$OUT/batch.txt"
    python3 bench/bench_batch.py --plain --repeats 3 2>&1 | tee "$OUT/batch_plain.txt"
    python3 bench/bench_batch_person.py --model full --repeats 3 --tokens 64 2>&1 \
        | tee "$OUT/person.txt"
}

case "${1:-}" in
    prepare) prepare ;;
    run) run ;;
    *) echo "usage: bash bench/gpu_batch.sh prepare|run" >&2; exit 2 ;;
esac
