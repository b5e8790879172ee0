#!/usr/bin/env python3
"""Loads pages in a real headless Chromium at several window widths and reports whether each scrolls sideways.

For every URL and width it prints one JSON line, {"url", "name", "width", "scroll_width", "client_width",
"overflow", "filters_shown", "path_lines", "screenshot"}, and saves a PNG of the whole page as
`<out>/<name>-<width>.png`. `overflow` lists up to 5 elements wider than the window (tag, class, right edge), so a
failure says what to fix; `filters_shown` whether the dashboard's filter form is shown (false while folded, null
without one); `path_lines` the most lines any list entry's path takes (null without a list). It talks to Chromium
over the DevTools protocol (websocket-client, pure Python, from PyPI), so the page's own Content-Security-Policy,
which allows no script, stays in force for the page.

    python3 -m venv .build/html-check-venv && .build/html-check-venv/bin/pip install websocket-client
    .build/html-check-venv/bin/python scripts/check-layout.py --out DIR --widths 375,768,1440 \
        --cookie dw_session=… name=http://127.0.0.1:8080/ [name=URL ...]
"""
import argparse
import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
import urllib.request

import websocket

MEASURE = """(() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > width + 0.5)
    .slice(0, 5)
    .map(e => `${e.tagName.toLowerCase()}.${e.className} right=${Math.round(e.getBoundingClientRect().right)}`);
  const form = document.querySelector('form.filters');
  const paths = [...document.querySelectorAll('table.list td.field code')].map(e =>
    Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)));
  return JSON.stringify({
    scroll_width: document.documentElement.scrollWidth, client_width: width, overflow: wide,
    filters_shown: form ? form.checkVisibility() : null,
    path_lines: paths.length ? Math.max(...paths) : null});
})()"""


class Page:
    def __init__(self, socket):
        self.socket = socket
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})

    def wait_for(self, event, timeout=30):
        deadline = time.time() + timeout
        self.socket.settimeout(timeout)
        while time.time() < deadline:
            if json.loads(self.socket.recv()).get("method") == event:
                return
        raise TimeoutError(event)


def browser_executable():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    raise SystemExit("check-layout: chromium is not installed (apt-get install chromium)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--widths", default="375,768,1440")
    parser.add_argument("--cookie", action="append", default=[], help="name=value, sent with every page")
    parser.add_argument("pages", nargs="+", help="name=URL")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="check-layout-")
    browser = subprocess.Popen(
        [browser_executable(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--no-first-run", "--hide-scrollbars", f"--user-data-dir={profile}", "--remote-debugging-port=0",
         "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline:
                raise SystemExit("check-layout: chromium did not open its DevTools port")
            time.sleep(0.05)
        port = open(port_file).read().split()[0]
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json"))
        target = next(t for t in targets if t.get("type") == "page")
        page = Page(websocket.create_connection(target["webSocketDebuggerUrl"], timeout=30))
        page.call("Page.enable")
        page.call("Network.enable")
        for cookie in arguments.cookie:
            name, value = cookie.split("=", 1)
            first_url = arguments.pages[0].split("=", 1)[1]
            page.call("Network.setCookie", name=name, value=value, url=first_url)
        for entry in arguments.pages:
            name, url = entry.split("=", 1)
            for width in (int(w) for w in arguments.widths.split(",")):
                page.call("Emulation.setDeviceMetricsOverride", width=width, height=900, deviceScaleFactor=1,
                          mobile=width < 600)
                page.call("Page.navigate", url=url)
                page.wait_for("Page.loadEventFired")
                result = page.call("Runtime.evaluate", expression=MEASURE, returnByValue=True)
                measured = json.loads(result["result"]["value"])
                metrics = page.call("Page.getLayoutMetrics")
                height = int(metrics["cssContentSize"]["height"])
                shot = page.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                                 clip={"x": 0, "y": 0, "width": width, "height": max(height, 1), "scale": 1})
                path = os.path.join(arguments.out, f"{name}-{width}.png")
                with open(path, "wb") as handle:
                    handle.write(base64.b64decode(shot["data"]))
                print(json.dumps({"url": url, "name": name, "width": width, **measured, "screenshot": path}),
                      flush=True)
    finally:
        browser.terminate()
        browser.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
