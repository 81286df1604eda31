"""Runtime hook (macOS bundle): load libmlx from mlx/lib before mlx.core links to it.

PyInstaller links mlx.core to a copy of libmlx at the top of Contents/Frameworks; MLX then
looks for mlx.metallib beside that copy and fails. Loading mlx/lib/libmlx.dylib first makes
dyld reuse that image, whose folder holds the metallib."""

import ctypes
import os
import sys

_LIB = os.path.join(getattr(sys, "_MEIPASS", ""), "mlx", "lib", "libmlx.dylib")
if sys.platform == "darwin" and os.path.exists(_LIB):
    ctypes.CDLL(_LIB, mode=ctypes.RTLD_GLOBAL)
