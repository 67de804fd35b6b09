"""Image files for the logo tests, made in memory: good ones and every kind refused."""

from __future__ import annotations

import io
import os

from PIL import Image

#: What the EXIF of `jpeg_with_exif` says: it must not survive into a stored logo.
SECRET = "Secret camera note 51.5N 0.12W"


def image_bytes(size: tuple[int, int], fmt: str = "PNG", colour: str = "#1f4e9c", **save) -> bytes:
    out = io.BytesIO()
    mode = "RGB" if fmt == "JPEG" else "RGBA"
    Image.new(mode, size, colour).save(out, format=fmt, **save)
    return out.getvalue()


def jpeg_with_exif(size: tuple[int, int] = (400, 200)) -> bytes:
    """A JPEG whose EXIF holds a description, the software and the artist."""
    exif = Image.Exif()
    exif[0x010E] = SECRET  # ImageDescription
    exif[0x0131] = "SecretSoft 1.0"  # Software
    exif[0x013B] = "Secret Artist"  # Artist
    return image_bytes(size, "JPEG", "#c81e1e", exif=exif.tobytes(), comment=SECRET.encode())


def bomb_png() -> bytes:
    """A real decompression bomb: 10,000 x 10,000 one-bit pixels (100 million, over
    Pillow's Image.MAX_IMAGE_PIXELS of about 89 million) packed into a few kilobytes."""
    out = io.BytesIO()
    Image.new("1", (10_000, 10_000)).save(out, format="PNG")
    return out.getvalue()


def many_pixels_png() -> bytes:
    """9,000 x 9,000 pixels: each side allowed, 81 million pixels more than a logo's 24."""
    out = io.BytesIO()
    Image.new("1", (9_000, 9_000)).save(out, format="PNG")
    return out.getvalue()


def wide_png() -> bytes:
    """20,000 pixels wide, one high: a tiny file with a side over 10,000."""
    out = io.BytesIO()
    Image.new("1", (20_000, 1)).save(out, format="PNG")
    return out.getvalue()


def noise_png(over: int = 2 * 1024 * 1024) -> bytes:
    """A real PNG of random pixels, which does not compress: over 2 MB."""
    side = 900
    data = b""
    while len(data) <= over:
        side += 100
        raw = os.urandom(side * side * 3)
        out = io.BytesIO()
        Image.frombytes("RGB", (side, side), raw).save(out, format="PNG")
        data = out.getvalue()
    return data


SVG = (
    b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">'
    b'<script>alert(1)</script><rect width="64" height="64" fill="red"/></svg>'
)
GARBAGE = b"\x89PNG\r\n\x1a\n" + b"this is not really an image" * 20
