"""The picture of the deal viewer (docs/usage.md): writes results/viewer.html (`solve
westcliff --deal 3 --html`) and results/viewer.png, a screenshot of that page in headless
Chromium at step STEP.

    python experiments/viewer_screenshot.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

GAME, DEAL, BUDGET, STEP = "westcliff", 3, "1e5", 30
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def main() -> None:
    page_path, png = Path("results/viewer.html"), Path("results/viewer.png")
    subprocess.run([sys.executable, "-m", "solitaire_odds", "solve", GAME, "--deal", str(DEAL), "--budget", BUDGET,
                    "--html", str(page_path)], check=True, stdout=subprocess.DEVNULL)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 900, "height": 480})
        page.goto(page_path.resolve().as_uri())
        for _ in range(STEP):
            page.keyboard.press("ArrowRight")
        page.screenshot(path=str(png))
        browser.close()
    print(f"wrote {page_path} and {png}")


if __name__ == "__main__":
    main()
