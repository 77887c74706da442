#!/usr/bin/env python3
"""Drive the Ecclesia console in Debian's headless Chromium (Selenium + chromium-driver).

Usage: console_browser.py --base http://127.0.0.1:PORT [--screenshots DIR] [--real]

Without --real it expects the stand-in corpus skills of tests/it/fakes.rs; with --real it runs
against `ecclesia serve` with the console mounted and a full store (any answer with a citation,
any search result).

Checks, against a running console (with an A2A endpoint and agent card beside it):
  - the start page opens on today (celebration and colour on the first screen, the readings'
    citations, no horizontal scrolling) at phone and desktop widths;
  - readings of Trinity Sunday 2026 (John 3:16-18), rendered without errors;
  - the month grid: ArrowRight / ArrowLeft cross the year boundary (Dec 2026 -> Jan 2027 -> back);
  - ask: the answer streams in through message/stream, a citation marker opens the
    cited passage highlighted;
  - search: a result opens its document;
  - the explorer loads the agent card and sends a request, showing the raw JSON-RPC reply;
  - on every page: the CSP header, `lang` on <html>, one <h1>, a label for every field,
    unique ids, balanced tags, strict HTML5 parsing (html5lib), WCAG text contrast,
    no console errors;
  - screenshots of each page at phone and desktop widths (written to --screenshots).
Prints "ALL OK" and exits 0 when every check passes.
"""
import argparse
import html.parser

import html5lib  # Debian python3-html5lib: the WHATWG parser, strict = fail on any parse error
import os
import shutil
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

FAILURES = []
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
        "path", "circle", "rect", "line"}


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        FAILURES.append(what)


class Balance(html.parser.HTMLParser):
    """Tag balance of the served HTML (a basic validity check)."""

    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
        else:
            self.stack.pop()


def fetch(url):
    with urllib.request.urlopen(url, timeout=60) as r:
        return r.status, r.headers, r.read().decode("utf-8")


A11Y_JS = r"""
var problems = [];
if (!document.documentElement.getAttribute('lang')) problems.push('no lang on html');
var h1 = document.querySelectorAll('h1').length; if (h1 !== 1) problems.push(h1 + ' h1 elements');
document.querySelectorAll('input:not([type=hidden]), select, textarea').forEach(function (e) {
  var ok = e.getAttribute('aria-label') || (e.id && document.querySelector('label[for="' + e.id + '"]')) || e.closest('label');
  if (!ok) problems.push('field without label: ' + (e.name || e.id));
});
var seen = {};
document.querySelectorAll('[id]').forEach(function (e) { if (seen[e.id]) problems.push('duplicate id ' + e.id); seen[e.id] = 1; });
document.querySelectorAll('img').forEach(function (e) { if (!e.hasAttribute('alt')) problems.push('img without alt'); });
document.querySelectorAll('a').forEach(function (e) { if (!e.textContent.trim() && !e.getAttribute('aria-label') && !e.querySelector('svg,img')) problems.push('empty link ' + e.href); });
// WCAG 2.x contrast of text against its (first opaque) background: 4.5:1, 3:1 for large text.
function rgb(c) { var m = c.match(/[\d.]+/g); return m ? m.map(Number) : [0, 0, 0, 0]; }
function lum(c) { var a = c.slice(0, 3).map(function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * a[0] + 0.7152 * a[1] + 0.0722 * a[2]; }
function bg(e) { for (; e; e = e.parentElement) { var c = rgb(getComputedStyle(e).backgroundColor); if (c.length < 4 || c[3] > 0.5) return c; } return [255, 255, 255]; }
var low = 0;
document.querySelectorAll('body *').forEach(function (e) {
  var own = Array.prototype.some.call(e.childNodes, function (n) { return n.nodeType === 3 && n.textContent.trim(); });
  if (!own || !e.offsetParent) return;
  var st = getComputedStyle(e), fg = rgb(st.color), l1 = lum(fg), l2 = lum(bg(e));
  var ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
  var size = parseFloat(st.fontSize), bold = parseInt(st.fontWeight, 10) >= 700;
  var need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
  if (ratio < need && low++ < 3) problems.push('contrast ' + ratio.toFixed(2) + ' < ' + need + ' on ' + e.tagName.toLowerCase() + ': ' + e.textContent.trim().slice(0, 30));
});
return problems;
"""


def page_checks(driver, base, path, name, shots):
    status, headers, body = fetch(base + path)
    csp = headers.get("Content-Security-Policy") or ""
    check(status == 200, f"{name}: HTTP 200")
    check("default-src 'none'" in csp and "script-src 'self'" in csp, f"{name}: strict CSP header")
    b = Balance()
    b.feed(body)
    check(not b.errors and b.stack == [], f"{name}: balanced tags {b.errors[:3]} {b.stack[:3]}")
    try:
        html5lib.HTMLParser(strict=True).parse(body)
        parse_error = ""
    except Exception as e:  # html5lib raises ParseError at the first error
        parse_error = f"{type(e).__name__}: {e}"
    check(not parse_error, f"{name}: HTML5 parses without errors {parse_error[:160]}")
    driver.get(base + path)
    problems = driver.execute_script(A11Y_JS)
    check(not problems, f"{name}: accessibility basics {problems[:5]}")
    errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    check(not errors, f"{name}: no console errors {[e.get('message') for e in errors][:3]}")
    if shots:
        for label, (w, h) in {"phone": (390, 844), "desktop": (1280, 900)}.items():
            driver.set_window_size(w, h)
            time.sleep(0.2)
            driver.save_screenshot(os.path.join(shots, f"{name}-{label}.png"))
        driver.set_window_size(1280, 900)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True)
    ap.add_argument("--screenshots", default="")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--driver", default=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    ap.add_argument("--real", action="store_true", help="a real server and store, not the stand-ins")
    a = ap.parse_args()
    question = "What is the Eucharist?" if a.real else "What is grace?"
    term = "Eucharist" if a.real else "grace"
    base = a.base.rstrip("/")
    if a.screenshots:
        os.makedirs(a.screenshots, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="ecclesia-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = a.chromium
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", f"--user-data-dir={profile}", "--window-size=1280,900"]:
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(a.driver), options=opts)
    wait = WebDriverWait(driver, 30)
    try:
        # Every page: headers, validity, accessibility basics, console, screenshots.
        for path, name in [("/", "home"), ("/readings?q=Trinity%20Sunday%202026", "readings"),
                           ("/calendar?year=2026&month=6", "calendar"), ("/ask", "ask"),
                           ("/ask?q=" + urllib.parse.quote(question), "ask-answer"),
                           ("/lookup?kind=person&q=Wilton%20Gregory", "lookup-lineage"),
                           ("/search?q=" + term, "search"),
                           ("/document?id=" + ("baltimore-catechism-1" if a.real else "doc-grace"), "document"),
                           ("/explorer", "explorer"), ("/martyrology?date=2026-03-19", "martyrology")]:
            page_checks(driver, base, path, name, a.screenshots)

        # The start page opens on today, readable at phone and desktop widths.
        for label, (w, h) in {"phone": (390, 844), "desktop": (1280, 900)}.items():
            driver.set_window_size(w, h)
            driver.get(base + "/")
            today = driver.find_elements(By.ID, "today")
            check(len(today) == 1 and today[0].is_displayed(), f"home ({label}): today's section is shown")
            if today:
                heading = today[0].find_element(By.TAG_NAME, "h2")
                check(heading.is_displayed() and heading.location["y"] < h,
                      f"home ({label}): today's celebration is on the first screen")
                swatch = today[0].find_elements(By.CSS_SELECTOR, "h2 .swatch")
                check(len(swatch) == 1, f"home ({label}): the colour swatch")
                text = today[0].text
                check(" — " in text, f"home ({label}): the readings' citations")
            overflow = driver.execute_script("return document.documentElement.scrollWidth - window.innerWidth;")
            check(overflow <= 1, f"home ({label}): no horizontal scrolling ({overflow}px)")
        driver.set_window_size(1280, 900)

        # Readings.
        driver.get(base + "/readings?q=Trinity%20Sunday%202026")
        text = driver.find_element(By.TAG_NAME, "main").text
        check("John 3:16-18" in text and "The Most Holy Trinity" in text, "readings: Trinity Sunday 2026 shows John 3:16-18")
        # The date picker and the GET form.
        driver.get(base + "/readings")
        driver.execute_script("document.getElementById('f-date').value = '2026-12-25';")
        driver.find_element(By.CSS_SELECTOR, "form.panel button[type=submit]").click()
        wait.until(EC.url_contains("date=2026-12-25"))
        check("Other Masses" in driver.find_element(By.TAG_NAME, "main").text, "readings: the date picker opens Christmas with its other Masses")

        # The month grid and its keyboard navigation across the year.
        driver.get(base + "/calendar?year=2026&month=12")
        check(len(driver.find_elements(By.CSS_SELECTOR, "td[data-date]")) == 31, "calendar: 31 days in December")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        wait.until(EC.url_contains("year=2027"))
        check("month=1" in driver.current_url and "January 2027" in driver.title, "calendar: ArrowRight goes to January 2027")
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_LEFT)
        wait.until(EC.url_contains("year=2026"))
        check("month=12" in driver.current_url, "calendar: ArrowLeft goes back to December 2026")
        cell = driver.find_element(By.CSS_SELECTOR, "td[data-date='2026-12-25']")
        check("c-WHITE" in cell.get_attribute("class") and "rank-SOLEMNITY" in cell.get_attribute("class"), "calendar: Christmas is a white solemnity")
        bg = driver.execute_script("return getComputedStyle(arguments[0]).borderLeftColor;", cell)
        check(bg not in ("", "rgba(0, 0, 0, 0)"), f"calendar: the day carries its colour ({bg})")

        # Ask: streamed answer, then a citation opens the passage highlighted.
        driver.get(base + "/ask")
        box = driver.find_element(By.ID, "f-q")
        box.send_keys(question)
        driver.find_element(By.CSS_SELECTOR, "#ask-form button").click()
        wait.until(lambda d: d.find_element(By.ID, "answer").get_attribute("data-state") in ("done", "fallback"))
        state = driver.find_element(By.ID, "answer").get_attribute("data-state")
        check(state == "done", f"ask: the answer streamed through message/stream (state {state})")
        check("/ask" in driver.current_url and "q=" not in driver.current_url, "ask: no page load while streaming")
        answer = driver.find_element(By.ID, "answer-text").text
        if a.real:
            check("[1]" in answer and len(answer) > 100, f"ask: streamed text {answer[:80]!r}")
            check(len(driver.find_elements(By.CSS_SELECTOR, "ol.sources li")) >= 1, "ask: the sources list")
        else:
            check("Grace is a gift [1]" in answer, f"ask: streamed text {answer[:80]!r}")
            check("<script>" in answer, "ask: hostile text shown as text, not run")
            check(len(driver.find_elements(By.CSS_SELECTOR, "ol.sources li")) == 1, "ask: the sources list")
            check(len(driver.find_elements(By.CSS_SELECTOR, "ul.related a")) == 2, "ask: related questions are links")
        driver.find_element(By.CSS_SELECTOR, "#answer-text a.marker").click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "mark#cited")))
        mark = driver.find_element(By.CSS_SELECTOR, "mark#cited")
        expected = "" if a.real else "Grace is the free and undeserved help"
        check(len(mark.text) > 10 and mark.text.startswith(expected), f"ask: the citation opens the passage highlighted ({mark.text[:60]!r})")
        check(mark.is_displayed(), "ask: the highlighted passage is visible")

        # Search: a result opens its document.
        driver.get(base + "/search?q=" + term)
        results = driver.find_elements(By.CSS_SELECTOR, "a.result")
        check(len(results) == 10, "search: ten results a page")
        first_title = results[0].text
        driver.find_element(By.ID, "next-page").click()
        wait.until(EC.url_contains("page=2"))
        second = driver.find_element(By.CSS_SELECTOR, "a.result")
        second_title = second.text
        check(a.real or second_title.startswith("Result 11"), f"search: page 2 starts at result 11 ({second_title!r})")
        second.click()
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "article.document h1")))
        h1 = driver.find_element(By.CSS_SELECTOR, "article.document h1").text
        check(bool(h1) and (a.real or "On Grace" in h1), f"search: a result opens the document ({h1!r}, first was {first_title!r})")
        check(len(driver.find_elements(By.CSS_SELECTOR, "mark")) >= 1, "search: the snippet is highlighted in the document")

        # Explorer: the card and a request sent from the page.
        driver.get(base + "/explorer")
        wait.until(lambda d: d.find_element(By.ID, "agent-card").get_attribute("data-state") in ("done", "error"))
        check("protocolVersion" in driver.find_element(By.ID, "agent-card").text, "explorer: the agent card is shown")
        details = driver.find_element(By.ID, "skill-liturgical_readings")
        details.find_element(By.TAG_NAME, "summary").click()
        details.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        out = driver.find_element(By.ID, "resp-liturgical_readings")
        wait.until(lambda d: out.get_attribute("data-state") in ("done", "error"))
        check("HTTP 200" in out.text and "mass_readings" in out.text and '"kind": "task"' in out.text, "explorer: the request is sent and the raw reply shown")
        check("curl -sS" in details.find_element(By.CSS_SELECTOR, "pre.curl").text, "explorer: the curl command")
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        check(not errors, f"no console errors after the interactions {[e.get('message') for e in errors][:3]}")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    if a.screenshots:
        print("screenshots:", ", ".join(sorted(os.listdir(a.screenshots))))
    if FAILURES:
        print(f"{len(FAILURES)} FAILED")
        sys.exit(1)
    print("ALL OK")


if __name__ == "__main__":
    main()
