"""PyInstaller hook for llama-cpp-python: its native libraries are found by path, not by import.

llama_cpp ctypes-loads libllama/libggml* (llama.dll, ggml-*.dll on Windows, libggml-metal on
macOS) from llama_cpp/lib, which analysis cannot see ("Shared library with base name 'llama'
not found" at run time). Collect them there, keeping the wheel's layout; headers, CMake files
and Windows import libraries (.lib) are only for building and stay out."""

from PyInstaller.utils.hooks import collect_dynamic_libs, collect_submodules

binaries = collect_dynamic_libs("llama_cpp")  # (path, "llama_cpp/lib"): layout preserved
# The server extra is not used by the app; its imports would drag in fastapi and uvicorn.
hiddenimports = collect_submodules("llama_cpp", filter=lambda name: not name.startswith(
    "llama_cpp.server"))
excludedimports = ["llama_cpp.server"]
