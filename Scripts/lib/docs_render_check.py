"""Checks that DiffLab's documentation site renders: the landing page and one article.

Serves SITE on loopback, renders each page in headless Chromium, keeps a screenshot of it in
SCREENSHOT_DIR, and fails when a page renders empty:
- the rendered DOM (after DocC's JavaScript ran) must hold the page's title and the start of its
  abstract, read from the page's own render JSON (so a page whose data failed to load, or that
  shows "page not found", fails);
- the screenshot must not be blank: at least 2% of its pixels differ from its most common colour,
  in at least 16 colours.
Two controls run first and must fail the checks, so the checks can fail: a blank page
(about:blank) and a page the site does not have.
"""

import html
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

from PIL import Image

PAGES = [
    # (URL path, render JSON under data/, screenshot name)
    ("/documentation/difflab", "documentation/difflab.json", "landing.png"),
    ("/documentation/difflab/fuzzing", "documentation/difflab/fuzzing.json", "article-fuzzing.png"),
]


def chromium(*arguments):
    base = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--window-size=1280,1400", "--virtual-time-budget=20000"]
    done = subprocess.run(base + list(arguments), capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise SystemExit(f"docs-render-check: chromium exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


def visible_text(dom):
    dom = re.sub(r"<noscript>.*?</noscript>", " ", dom, flags=re.S)
    dom = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", dom, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", dom))
    return " ".join(text.split())


def expected_texts(site, data_path):
    with open(os.path.join(site, "data", data_path), encoding="utf-8") as file:
        page = json.load(file)
    title = page["metadata"]["title"]
    abstract = "".join(part.get("text", "") or part.get("code", "") for part in page.get("abstract", []))
    words = abstract.split()[:6]
    return [title] + ([" ".join(words)] if words else [])


def blank_reason(png):
    image = Image.open(png).convert("RGB")
    pixels = image.width * image.height
    colours = image.getcolors(maxcolors=pixels)
    colours.sort(reverse=True)
    dominant = colours[0][0]
    other = pixels - dominant
    if other < 0.02 * pixels:
        return f"{other} of {pixels} pixels differ from the background (expected at least 2%)"
    if len(colours) < 16:
        return f"only {len(colours)} colours (expected at least 16)"
    return None


def missing_text(dom, texts):
    shown = visible_text(dom)
    return [text for text in texts if " ".join(text.split()) not in shown]


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: docs_render_check.py SITE SCREENSHOT_DIR")
    site, shots = sys.argv[1], sys.argv[2]
    os.makedirs(shots, exist_ok=True)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=site, **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_address[1]}"
    failures = []
    try:
        # The controls: the checks must refuse an empty page.
        with tempfile.TemporaryDirectory() as scratch:
            blank = os.path.join(scratch, "blank.png")
            chromium(f"--screenshot={blank}", "about:blank")
            if blank_reason(blank) is None:
                failures.append("control: a blank page's screenshot passed the blank check")
        texts = expected_texts(site, PAGES[0][1])
        if not missing_text(chromium("--dump-dom", root + "/documentation/difflab/no-such-page"), texts):
            failures.append("control: a missing page's DOM passed the text check")

        for path, data, name in PAGES:
            texts = expected_texts(site, data)
            missing = missing_text(chromium("--dump-dom", root + path), texts)
            if missing:
                failures.append(f"{path}: the rendered page lacks {missing}")
            png = os.path.join(shots, name)
            chromium(f"--screenshot={png}", root + path)
            reason = blank_reason(png)
            if reason:
                failures.append(f"{path}: the screenshot {png} is blank: {reason}")
            else:
                print(f"docs-render-check: {path} rendered ({', '.join(repr(t) for t in texts)}); screenshot {png}")
    finally:
        server.shutdown()
    if failures:
        for failure in failures:
            print(f"docs-render-check: FAILED {failure}", file=sys.stderr)
        sys.exit(1)
    print(f"docs-render-check: {len(PAGES)} pages rendered, not empty; a blank page and a missing page are refused")


if __name__ == "__main__":
    main()
