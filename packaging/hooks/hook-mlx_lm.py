"""PyInstaller hook: mlx-lm imports models, tool parsers and chat templates by name at run time."""

from PyInstaller.utils.hooks import collect_submodules

hiddenimports = []
for sub in ("models", "tool_parsers", "chat_templates"):
    hiddenimports += collect_submodules(f"mlx_lm.{sub}")
# tuner/evaluate pull optional training dependencies the app never uses.
excludedimports = ["mlx_lm.tuner", "mlx_lm.evaluate", "mlx_lm.lora", "mlx_lm.fuse"]
