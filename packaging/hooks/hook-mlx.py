"""PyInstaller hook for MLX (macOS arm64 only): libmlx and mlx.metallib stay together in mlx/lib.

MLX finds its Metal kernels (mlx.metallib, ~170 MB, from the mlx-metal wheel) in the folder of
the binary that holds libmlx; anywhere else it fails with "Failed to load the default metallib".
packaging/macos/check_mlx.py verifies the built app against the lookup rules of the pinned
version (one libmlx, reached from mlx/core*.so through its rpaths, the metallib beside it)."""

from PyInstaller.utils.hooks import collect_data_files, collect_dynamic_libs, collect_submodules

# Keep the wheel's layout (mlx/lib/libmlx.dylib, libjaccl.dylib): no destdir override.
binaries = collect_dynamic_libs("mlx")
# Only the kernels: headers (include/) and CMake files (share/) are for building extensions.
datas = collect_data_files("mlx", includes=["**/*.metallib"])
hiddenimports = collect_submodules("mlx", filter=lambda name: ".include" not in name
                                   and not name.startswith("mlx._distributed_utils"))
