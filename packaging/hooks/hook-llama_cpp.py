"""PyInstaller hook: llama-cpp-python ctypes-loads libllama/libggml* from llama_cpp/lib by path."""

from PyInstaller.utils.hooks import collect_dynamic_libs, collect_submodules

# Keep the libraries where llama_cpp looks for them (llama_cpp/lib), not at the bundle top.
binaries = [(src, "llama_cpp/lib") for src, _ in collect_dynamic_libs("llama_cpp")]
# The server extra is not used by the app; its imports would drag in fastapi and uvicorn.
hiddenimports = [m for m in collect_submodules("llama_cpp") if not m.startswith("llama_cpp.server")]
excludedimports = ["llama_cpp.server"]
