"""Make build-time assets: app icons (.png/.ico/.icns) and the Windows version resource."""

from __future__ import annotations

import io
import os
import sys
import tomllib
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "packaging" / "build"
SOURCE_ICON = ROOT / "resources" / "icons" / "hearth.svg"  # the icon the running app shows
SIZE = 1024


def render_svg(path: Path, size: int) -> Image.Image:
    """Draw the SVG with Qt's own renderer (the same one the app uses), offscreen."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    QSvgRenderer(str(path)).render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stubs want bytes; Qt, str
    return Image.open(io.BytesIO(bytes(data.data()))).convert("RGBA")


def base_icon() -> Image.Image:
    """The app icon at 1024 px: resources/icons/hearth.svg, else a drawn hearth flame."""
    if SOURCE_ICON.exists():
        return render_svg(SOURCE_ICON, SIZE)
    img = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((64, 64, 960, 960), radius=200, fill=(46, 42, 40, 255))
    draw.ellipse((312, 360, 712, 860), fill=(236, 122, 48, 255))
    draw.polygon([(512, 160), (712, 610), (312, 610)], fill=(236, 122, 48, 255))
    draw.ellipse((412, 560, 612, 820), fill=(252, 196, 84, 255))
    return img


def version_info(version: str) -> str:
    parts = [int(p) for p in version.split(".")[:3]] + [0]
    nums = ", ".join(str(p) for p in (parts + [0, 0, 0])[:4])
    return f"""VSVersionInfo(
  ffi=FixedFileInfo(filevers=({nums}), prodvers=({nums})),
  kids=[StringFileInfo([StringTable('040904B0', [
    StringStruct('CompanyName', 'Hearth'),
    StringStruct('FileDescription', 'Hearth, a private local assistant'),
    StringStruct('FileVersion', '{version}'),
    StringStruct('ProductName', 'Hearth'),
    StringStruct('ProductVersion', '{version}'),
    StringStruct('LegalCopyright', 'Apache-2.0')])]),
    VarFileInfo([VarStruct('Translation', [1033, 1200])])]
)
"""


def main() -> int:
    icons = OUT / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    img = base_icon()
    img.resize((256, 256), Image.Resampling.LANCZOS).save(icons / "hearth.png")  # Linux launcher icon
    img.save(icons / "hearth.ico", sizes=[(s, s) for s in (16, 24, 32, 48, 64, 128, 256)])
    img.save(icons / "hearth.icns")
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    (OUT / "version_info.txt").write_text(version_info(version), encoding="utf-8")
    print(f"assets for Hearth {version} in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
