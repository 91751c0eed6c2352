"""Reads a report's page (`anqi report`'s index.html) in headless Chromium, as a person would,
at two window widths, and says what it measured (analysis/tests/report_page.rs judges it):

- every chart text's size in CSS pixels as drawn (its font size times the SVG's scale on the
  page), the smallest per chart;
- every heatmap label's contrast with the square it is drawn on (WCAG's ratio);
- the page's text as read (document.body.innerText), for the codes a person should not meet;
- screenshots: the first screen, and the players' part (the first leaderboard).

- whether the page's own font (Anqi Serif, embedded) loaded, so its Chinese reads on a
  machine without CJK fonts.

Usage: report.py INDEX_HTML OUT_DIR [SCREENSHOT_NAME]  (the name defaults to report-tcga)
Prints one JSON object: {"widths": {"1000": {...}, "800": {...}}, "text": "...", "font": "loaded"}.
"""

import json
import os
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def browser(width):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--hide-scrollbars", "--force-device-scale-factor=1",
                 "--allow-file-access-from-files", f"--window-size={width},800"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


# Each chart's texts: the size drawn, and for a heatmap's labels the colours of the text and of
# the topmost rectangle under its middle.
MEASURE = """
const out = [];
for (const figure of document.querySelectorAll('figure')) {
  const svg = figure.querySelector('svg');
  if (!svg) continue;
  const chart = {label: figure.getAttribute('aria-label'), sizes: [], labels: []};
  for (const text of svg.querySelectorAll('text')) {
    if (!text.textContent.trim()) continue;
    // The scale as drawn, rotation aside (an axis's name is turned a quarter).
    const m = text.getScreenCTM();
    const size = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b);
    chart.sizes.push([text.textContent.trim(), size]);
    text.scrollIntoView({block: 'center', inline: 'center'});
    const b = text.getBoundingClientRect();
    const under = document.elementsFromPoint(b.left + b.width / 2, b.top + b.height / 2)
      .find(e => e.tagName === 'rect');
    if (under && under.getAttribute('fill') !== '#FFFFFF') {
      chart.labels.push([text.textContent.trim(), text.getAttribute('fill'), under.getAttribute('fill')]);
    }
  }
  out.push(chart);
}
return out;
"""


def luminance(hex_colour):
    hex_colour = hex_colour.lstrip("#")
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a, b):
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def main():
    index, out = sys.argv[1], sys.argv[2]
    name = sys.argv[3] if len(sys.argv) > 3 else "report-tcga"
    os.makedirs(out, exist_ok=True)
    url = "file://" + os.path.abspath(index)
    result = {"widths": {}}
    for width in (1000, 800):
        driver = browser(width)
        try:
            driver.get(url)
            charts = driver.execute_script(MEASURE)
            measured = []
            for chart in charts:
                smallest = min(chart["sizes"], key=lambda s: s[1]) if chart["sizes"] else None
                worst = None
                for text, ink, fill in chart["labels"]:
                    ratio = contrast(ink, fill)
                    if worst is None or ratio < worst[1]:
                        worst = [text, ratio, ink, fill]
                measured.append({"chart": chart["label"], "texts": len(chart["sizes"]),
                                 "smallest": smallest, "labels": len(chart["labels"]),
                                 "worst_contrast": worst})
            result["widths"][str(width)] = measured
            if width == 1000:
                result["text"] = driver.execute_script("return document.body.innerText")
                result["font"] = driver.execute_async_script(
                    "const done = arguments[arguments.length - 1];"
                    "document.fonts.ready.then(() => done([...document.fonts]"
                    ".filter(f => f.family.replace(/\"/g, '') === 'Anqi Serif')"
                    ".map(f => f.status).join(',')));")
                driver.execute_script("document.querySelector('section h2').scrollIntoView()")
                driver.save_screenshot(os.path.join(out, f"{name}.png"))
                driver.execute_script(
                    "document.querySelector('[id$=\"-ratings-tcga\"]').scrollIntoView()")
                driver.save_screenshot(os.path.join(out, f"{name}-players.png"))
        finally:
            driver.quit()
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
