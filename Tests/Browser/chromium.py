"""What the browser scripts share: Selenium's names (exit 2 when it is
missing), headless Chromium at a given CSS size, and the failure list."""
import os, shutil, sys

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:
    print("selenium is missing: run scripts/install-browser-deps.sh", file=sys.stderr)
    sys.exit(2)

__all__ = ["webdriver", "ActionChains", "ActionBuilder", "ScrollOrigin", "By", "Keys", "chrome", "check", "verdict", "FAILURES", "axe_source", "run_axe", "SEAT_AT_POINTS"]

FAILURES = []


def check(ok, what):
    """Records (and prints) a failed check; returns ok."""
    if not ok:
        FAILURES.append(what)
        print("FAIL:", what)
    return ok


def chrome(width, height, scale=1, mobile=False, window=None):
    """Debian's headless Chromium with a viewport of width x height CSS px
    at that device scale (a phone with touch when mobile)."""
    options = webdriver.ChromeOptions()
    w, h = window or (width, height + 200)
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=%d,%d" % (w, h)]:
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
    if mobile:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    driver.set_script_timeout(30)
    return driver


def verdict(name):
    """The exit code after every check: 1 when any failed (their count printed), else 0."""
    if FAILURES:
        print("%d check(s) failed" % len(FAILURES))
        return 1
    print("%s passed" % name)
    return 0


def axe_source():
    try:
        import axe_playwright_python
    except ImportError:
        print("axe-core is missing: run scripts/install-browser-deps.sh", file=sys.stderr)
        sys.exit(2)
    with open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js"), encoding="utf-8") as f:
        return f.read()


def run_axe(d, axe, label):
    d.execute_script(axe)
    result = d.execute_async_script("""
        var done = arguments[arguments.length - 1];
        function brief(v) { return {id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}; }
        axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(brief)),
                                                             e => done([{id: 'axe-error', impact: '', help: String(e), nodes: []}]));""")
    for v in result:
        check(False, "%s: axe %s (%s): %s at %s" % (label, v["id"], v["impact"], v["help"], v["nodes"]))
    return len(result)


# The seat Chromium hit-tests at each page point [x, y] (content pixels of an
# SVG drawn at device scale 1): the id of the `seat-…` group under it, or null.
SEAT_AT_POINTS = """
var pts = arguments[0], res = [];
for (var i = 0; i < pts.length; i++) {
  var x = pts[i][0], y = pts[i][1];
  window.scrollTo(Math.max(0, x - 50), Math.max(0, y - 50));
  var e = document.elementFromPoint(x - window.scrollX, y - window.scrollY);
  while (e && !(e.id || '').startsWith('seat-') && e.tagName.toLowerCase() !== 'svg' && e.tagName !== 'BODY') e = e.parentElement || e.parentNode;
  res.push(e && (e.id || '').startsWith('seat-') ? e.id.slice(5) : null);
}
return res;
"""
