#!/usr/bin/env python3
"""Makes `AnqiSerif-Regular.otf`: the glyphs the project draws, cut from Noto Serif CJK TC.

Boards and charts name pieces in CJK (帥, 將, 司令 …) and must not depend on the fonts of the
machine that shows them (servers, containers and many phones have none). This script keeps
only what the project can draw: printable ASCII, a few typographic signs, and every character
beyond U+2000 in a string or character literal of the Rust sources (`records/`, `api/`,
`analysis/`), and every character of the pages' and the report's words (`i18n/*.json`), so a
new piece name or a new word is covered once the script runs again. The service also serves
this font to its pages (`/fonts/anqi-serif.otf`), so their Chinese reads on a machine without
CJK fonts. The subset is renamed
(Anqi Serif), as the SIL Open Font License asks of a modified font (OFL.txt).

Run from the repository's root, with fontTools (`pip install fonttools`) and Debian's
`fonts-noto-cjk` (`apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb x`):

    python3 assets/fonts/subset.py x/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc

`tests/tests/glyphs.rs` fails when the sources draw a character the subset lacks.
"""

import glob
import json
import re
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

OUT = "assets/fonts/AnqiSerif-Regular.otf"
FAMILY = "Anqi Serif"
TC = 3  # the face of the collection that draws traditional Chinese


def drawn_characters():
    chars = {chr(c) for c in range(0x20, 0x7F)}
    chars.update("·×÷±–—…←→↑↓−○●◀▶")
    sources = []
    for root in ("records/src", "api/src", "analysis/src"):
        sources += glob.glob(f"{root}/**/*.rs", recursive=True)
    literal = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)\'')
    for path in sorted(sources):
        with open(path, encoding="utf-8") as f:
            for lit in literal.findall(f.read()):
                chars.update(c for c in lit if ord(c) > 0x2000)
    for path in sorted(glob.glob("i18n/*.json")):
        with open(path, encoding="utf-8") as f:
            for text in json.load(f).values():
                chars.update(c for c in text if ord(c) > 0x2000)
    # The language switch names each language in its own script.
    chars.update("繁體中文简体中文")
    return sorted(chars)


def main():
    ttc = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc"
    font = TTCollection(ttc).fonts[TC]
    chars = drawn_characters()
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text="".join(chars))
    subsetter.subset(font)
    names = font["name"]
    for record in names.names:
        if record.nameID in (1, 16):
            record.string = FAMILY
        elif record.nameID == 4:
            record.string = FAMILY + " Regular"
        elif record.nameID == 6:
            record.string = "AnqiSerif-Regular"
        elif record.nameID == 3:
            record.string = "AnqiSerif-Regular (subset of Noto Serif CJK TC)"
    font.save(OUT)
    missing = [c for c in chars if ord(c) not in font.getBestCmap()]
    print(f"{OUT}: {len(chars)} characters, {len(missing)} not in the font: {''.join(missing)!r}")


if __name__ == "__main__":
    main()
