"""Make the bundle's icons from the application's one SVG: PNGs for Linux, .ico, .icns.

Usage: python packaging/icons.py OUT_FOLDER

Qt draws the SVG at each size itself (a 16 px icon drawn at 16 px, not shrunk from a large
one), and Pillow puts the drawings into the Windows .ico and the macOS .icns. Below 48 px the
year (the element with id "year") is left out: at that size it would be a smudge.
"""

from __future__ import annotations

import io
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # no screen is needed to draw

from PIL import Image  # noqa: E402  (after the platform is chosen, with Qt's)
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt  # noqa: E402
from PySide6.QtGui import QGuiApplication, QImage, QPainter  # noqa: E402
from PySide6.QtSvg import QSvgRenderer  # noqa: E402

SVG = Path(__file__).resolve().parents[1] / "campaign1813" / "data" / "icons" / "campaign1813.svg"
NAME = "campaign1813"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)      # the hicolor theme's folders on Linux
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)           # what Windows asks an .ico for
ICNS_SIZES = (16, 32, 64, 128, 256, 512, 1024)       # what macOS asks an .icns for
SMALL = 48                                           # below this, no year
SVG_NS = "http://www.w3.org/2000/svg"


def svg_for(size: int) -> bytes:
    """The SVG as drawn at ``size`` pixels: without the year below :data:`SMALL`."""
    source = SVG.read_bytes()
    if size >= SMALL:
        return source
    ET.register_namespace("", SVG_NS)
    root = ET.fromstring(source)
    for parent in root.iter():
        for child in list(parent):
            if child.get("id") == "year":
                parent.remove(child)
    return ET.tostring(root)


def draw(size: int) -> QImage:
    """The icon drawn by Qt at ``size`` × ``size`` pixels, on a transparent ground."""
    renderer = QSvgRenderer(QByteArray(svg_for(size)))
    if not renderer.isValid():
        raise SystemExit(f"{SVG}: not an SVG Qt can draw")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    return image


def png_bytes(image: QImage) -> bytes:
    """A Qt image as PNG bytes."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):
        raise SystemExit("Qt could not write a PNG")
    return bytes(data.data())


def make_icons(out: Path) -> dict[str, Path]:
    """Write every icon into ``out``: ``NAME-SIZE.png`` for each PNG size, ``NAME.png``
    (256 px), ``NAME.ico`` and ``NAME.icns``; returns them by kind."""
    QGuiApplication.instance() or QGuiApplication([])
    out.mkdir(parents=True, exist_ok=True)
    drawn = {size: png_bytes(draw(size))
             for size in sorted({*PNG_SIZES, *ICO_SIZES, *ICNS_SIZES})}
    for size in PNG_SIZES:
        (out / f"{NAME}-{size}.png").write_bytes(drawn[size])
    (out / f"{NAME}.png").write_bytes(drawn[256])
    pictures = {size: Image.open(io.BytesIO(png)) for size, png in drawn.items()}
    largest = max(ICO_SIZES)
    pictures[largest].save(out / f"{NAME}.ico", format="ICO",
                           sizes=[(s, s) for s in ICO_SIZES],
                           append_images=[pictures[s] for s in ICO_SIZES if s != largest])
    largest = max(ICNS_SIZES)
    pictures[largest].save(out / f"{NAME}.icns", format="ICNS",
                           append_images=[pictures[s] for s in ICNS_SIZES if s != largest])
    return {"png": out / f"{NAME}.png", "ico": out / f"{NAME}.ico",
            "icns": out / f"{NAME}.icns"}


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.strip().splitlines()[2])
    for kind, path in make_icons(Path(sys.argv[1])).items():
        print(f"{kind}: {path}")
