"""Draws the app's icons once (web/static/icons/icon-192.png, icon-512.png): a white die
showing five on the pages' felt green, inside the middle 80 % so that a launcher's mask
("maskable" icons, cut to a circle or a squircle) never cuts the die.

Run: .venv/bin/python scripts/make-icons.py  (needs Pillow; the PNGs are committed)
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

FELT = (15, 81, 50, 255)  # app.css --felt
DIE = (255, 255, 255, 255)
PIP = (29, 35, 48, 255)  # app.css --ink
ICONS = Path(__file__).resolve().parents[1] / "src" / "fivedice" / "web" / "static" / "icons"


def icon(size: int) -> Image.Image:
    """The icon at `size` pixels, drawn 4× larger and scaled down (smooth edges)."""
    big = size * 4
    image = Image.new("RGBA", (big, big), FELT)
    draw = ImageDraw.Draw(image)
    side = big * 0.5  # the die: half the icon, well inside the 80 % safe zone
    left = top = (big - side) / 2
    draw.rounded_rectangle((left, top, left + side, top + side), radius=side * 0.18, fill=DIE)
    radius = side * 0.09
    for fx, fy in ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)):
        x, y = left + fx * side, top + fy * side
        draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=PIP)
    return image.resize((size, size), Image.Resampling.LANCZOS)


if __name__ == "__main__":
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size).save(ICONS / f"icon-{size}.png", optimize=True)
        print(ICONS / f"icon-{size}.png")
