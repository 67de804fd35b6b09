"""Team logos: an uploaded file checked, re-drawn by Pillow and kept on disk.

An upload is trusted for nothing. It must be at most 2 MB, named .png, .jpg/.jpeg or
.webp, and be what its name says (Pillow reads the content, not the name); SVG and
anything else is refused. Its size is read from the header before any pixel is
decoded: a side over 10,000 px, or more pixels than a logo needs (a decompression
bomb: a small file that would unpack into gigabytes), is refused, and Pillow's own
bomb warning counts as a refusal too. The pixels are then drawn afresh onto new
square canvases of the sizes the pages show (256 and 64 px, the image kept whole
inside), and saved as PNG: nothing of the upload's metadata (EXIF, GPS, comments,
colour profiles) survives, since only pixels are copied.

Files live under ``LOGO_DIR`` (``instance/logos/`` by default, beside the PDF cache:
web and worker processes share it, and a PDF of a roster embeds the logo from there).
A logo's key is ``<team id>-<hash of its pixels>``, its files ``<key>-256.png`` and
``<key>-64.png``: a new logo is a new address, so browsers may keep one for good.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path

from flask import current_app
from PIL import Image, ImageOps, UnidentifiedImageError

from league.i18n import gettext
from league.models import Team
from league.services.errors import RuleViolation

#: The largest upload, in bytes.
MAX_BYTES = 2 * 1024 * 1024
#: The longest side of an upload, in pixels (a 20,000-pixel image is refused).
MAX_SIDE = 10_000
#: The most pixels an upload may unpack into (6,000 x 4,000: a large phone photo);
#: beyond, it is treated as a decompression bomb.
MAX_PIXELS = 24_000_000
#: The squares the pages, sheets and embeds show, in pixels.
SIZES = (256, 64)
#: Pillow's name for each accepted format, by file extension.
FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP"}
LOGO_FOLDER = "logos"
_KEY = re.compile(r"^[0-9]{1,12}-[0-9a-f]{16}$")
_FILE = re.compile(r"([0-9]{1,12}-[0-9a-f]{16})-([0-9]{1,4})\.png")
FIELD = "logo"


@dataclass(frozen=True, slots=True)
class Logo:
    """A logo ready to store: its key and the PNG bytes of each size."""

    key: str
    files: dict[int, bytes]


@dataclass(frozen=True, slots=True)
class TeamLook:
    """What a team looks like where only its name is at hand (a table row, a fixture):
    its colours and logo, with a Team's attribute names so one badge shows either."""

    primary_colour: str | None
    secondary_colour: str | None
    logo_key: str | None


def look_of(team: Team) -> TeamLook:
    """The look of a team, kept apart from its row."""
    return TeamLook(team.primary_colour, team.secondary_colour, team.logo_key)


def logo_dir() -> Path:
    configured = current_app.config.get("LOGO_DIR")
    return Path(configured) if configured else Path(current_app.instance_path) / LOGO_FOLDER


def valid_key(key: str) -> bool:
    return bool(_KEY.match(key))


def logo_address(key: str, size: int = SIZES[0]) -> str:
    """The logo's path on the site (served by league.web.identity at this address)."""
    if not valid_key(key) or size not in SIZES:
        raise ValueError(f"bad logo {key!r} {size!r}")
    return f"/logos/{key}-{size}.png"


def logo_path(key: str, size: int, directory: Path | None = None) -> Path:
    if not valid_key(key) or size not in SIZES:
        raise ValueError(f"bad logo {key!r} {size!r}")
    return (directory or logo_dir()) / f"{key}-{size}.png"


def parse_file_name(name: str) -> tuple[str, int] | None:
    """The (key, size) of a logo file's name (``<key>-<size>.png``), or None: not a name
    this module writes (which has no folder in it, nor ``..``)."""
    match = _FILE.fullmatch(name)
    if match is None or int(match[2]) not in SIZES:
        return None
    return match[1], int(match[2])


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def names_content(key: str, data: bytes) -> bool:
    """Whether `data` is the largest file of logo `key`, whose key names that file's hash."""
    return valid_key(key) and key.rsplit("-", 1)[1] == _digest(data)


def _refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(message, code=code, field=FIELD)


def _expected_format(filename: str, size: int) -> str:
    if size > MAX_BYTES:
        raise _refuse(
            "logo_too_large",
            gettext("A logo may be at most 2 MB; this file is %(size)s MB.", size=_mb(size)),
        )
    expected = FORMATS.get(Path(filename.lower()).suffix)
    if expected is None:
        raise _refuse(
            "logo_format",
            gettext("A logo must be a PNG, JPEG or WebP image (.png, .jpg, .jpeg or .webp)."),
        )
    return expected


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):.1f}"


def _opened(data: bytes, expected: str) -> Image.Image:
    """The upload opened (header read, pixels not yet decoded), or a refusal."""
    unreadable = _refuse("logo_unreadable", gettext("This file is not an image we can read."))
    try:
        image = Image.open(io.BytesIO(data), formats=list(set(FORMATS.values())))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise _bomb() from error
    except (UnidentifiedImageError, OSError, ValueError) as error:
        raise unreadable from error
    if image.format != expected:
        raise _refuse(
            "logo_mismatch",
            gettext(
                "This file's name says %(named)s but it holds a %(found)s image: "
                "rename it or save it again as %(named)s.",
                named=expected,
                found=image.format or "?",
            ),
        )
    width, height = image.size
    if max(width, height) > MAX_SIDE:
        raise _refuse(
            "logo_dimensions",
            gettext(
                "A logo may be at most %(max)s pixels on a side; this one is "
                "%(width)s \u00d7 %(height)s.",
                max=f"{MAX_SIDE:,}",
                width=f"{width:,}",
                height=f"{height:,}",
            ),
        )
    if width * height > MAX_PIXELS:
        raise _bomb()
    return image


def _bomb() -> RuleViolation:
    return _refuse(
        "logo_bomb",
        gettext("This image would unpack into far more pixels than a logo needs: it is refused."),
    )


def _decoded(image: Image.Image) -> Image.Image:
    """The first frame's pixels, upright (EXIF orientation applied), as RGBA."""
    try:
        image.seek(0)
        image.load()
        return ImageOps.exif_transpose(image).convert("RGBA")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        raise _bomb() from error
    except (OSError, ValueError, SyntaxError) as error:
        raise _refuse(
            "logo_unreadable", gettext("This file is not an image we can read.")
        ) from error


def _square(image: Image.Image, size: int) -> bytes:
    """`image` fitted whole inside a transparent `size` square, as PNG with no metadata."""
    fitted = image.copy()
    fitted.thumbnail((size, size), Image.Resampling.LANCZOS)
    canvas = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    canvas.paste(fitted, ((size - fitted.width) // 2, (size - fitted.height) // 2))
    out = io.BytesIO()
    canvas.save(out, format="PNG", optimize=True)
    return out.getvalue()


def prepare_logo(team_id: int, data: bytes, filename: str) -> Logo:
    """The upload checked and re-drawn at every size, or a refusal naming the field "logo"."""
    expected = _expected_format(filename, len(data))
    with warnings.catch_warnings():
        # Pillow warns of a likely bomb (over Image.MAX_IMAGE_PIXELS): a refusal here.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        with _opened(data, expected) as image:
            pixels = _decoded(image)
    files = {size: _square(pixels, size) for size in SIZES}
    return Logo(key=f"{team_id}-{_digest(files[SIZES[0]])}", files=files)


def stored_file_size(data: bytes) -> tuple[int, int]:
    """The width and height of a logo file from elsewhere (a backup), checked by the
    upload's rules (size, a PNG as its ``.png`` name says, no bomb, pixels that decode);
    or the upload's refusal."""
    expected = _expected_format("logo.png", len(data))
    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        with _opened(data, expected) as image:
            _decoded(image)
            return image.size


def store(logo: Logo, directory: Path | None = None) -> None:
    """Write the logo's files; each appears whole or not at all (written, then renamed)."""
    folder = directory or logo_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for size, data in logo.files.items():
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-")
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            os.replace(temporary, logo_path(logo.key, size, folder))
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise


def remove(key: str, directory: Path | None = None) -> None:
    """Delete a logo's files (those already gone are no matter)."""
    folder = directory or logo_dir()
    for size in SIZES:
        with contextlib.suppress(FileNotFoundError):
            logo_path(key, size, folder).unlink()
