"""PyInstaller hook: keep libmlx and mlx.metallib together in mlx/lib (mlx finds the metallib
next to the binary that holds libmlx; at the bundle top it fails with "default metallib")."""

from PyInstaller.utils.hooks import collect_data_files, collect_dynamic_libs, collect_submodules

binaries = [(src, "mlx/lib") for src, _ in collect_dynamic_libs("mlx")]
datas = [d for d in collect_data_files("mlx") if d[0].endswith(".metallib")]
datas = [(src, "mlx/lib") for src, _ in datas]
hiddenimports = collect_submodules("mlx", filter=lambda name: "include" not in name)
