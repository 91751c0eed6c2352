"""Plays on the page `/play/` in headless Chromium, by clicks, as people would (issues 43, 60).

1. Two browser sessions, one per seat of a Banqi game dealt by the page's own form with a
   friend's links: the links stay on the first page, the second seat's is copied with its
   button and opened in the second session; each plays its turns by clicking a piece on the
   board, then where it goes (once on a covered piece: a flip), and sees the other's plies
   arrive without reloading. After 8 plies the service is stopped (both pages say they are
   reconnecting) and started again: the pages catch up without a reload and play on; after
   16 plies the second resigns with its button: "You won by resignation." on one page, "You
   lost by resignation." on the other, and a link to the game's review on both.
2. A dark Luzhanqi game against the engine, dealt from the page's own form: at every ply the
   page shows the position as the seat is told it (enemy pieces `?`), checked against the
   seat's own `/v1/view`, and the engine's last move marked, until it resigns; the record is
   then stored.
3. A clock runs out: a game with a 2 s clock, nobody moves after the first two plies, and
   the page says the game is lost on time.
4. Every game (Banqi, Three Kingdoms, Luzhanqi dark, open and flip, xiangqi-3g) against the
   engine at 1280×720 and on a phone's 390×844, in English and in 繁體中文 (Chromium here
   has no CJK font: the page's own font draws it): the page never scrolls and shows the
   board, the status and the actions at once; the board has its coordinates; a click that
   does nothing says why; three plies by clicks, the engine's last move marked after each; a
   draw offer that the engine declines, said on the page; a resignation said from the
   player's side ("You lost …", "你輸了…"); the review link opens the game in the viewer; no
   console error or failed request on any page. With SCREENSHOTS=DIR it plays this part only
   and saves each game's page there (docs/screenshots/: `SCREENSHOTS=docs/screenshots python3
   api/tests/browser/play.py http://127.0.0.1:8080` against a running service).

Usage: play.py BASE_URL
Prints one line per part; exits 1 with the reason on the first failure. To restart the
service it prints STOP (then START) alone on a line and waits for `stopped` (`started`) on
its standard input.
"""

import json
import os
import re
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE = sys.argv[1]


def browser(size=(420, 900), language="en"):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 "--force-device-scale-factor=1", f"--window-size={size[0]},{size[1]}",
                 f"--lang={language}"):
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # The page's own viewport, whatever the window's frame takes.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": False})
    return driver


def console_errors(driver):
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def post(path, body):
    req = urllib.request.Request(BASE + path, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def fail(why, driver=None):
    if driver is not None:
        why += "\nstatus: " + driver.find_element(By.ID, "status").text
        why += "\nmessage: " + driver.find_element(By.ID, "message").text
    print("FAIL", why)
    sys.exit(1)


def status(driver):
    return driver.find_element(By.ID, "status").text


def position(driver):
    return driver.find_element(By.ID, "board").get_attribute("data-position") or ""


def my_actions(driver):
    return [b.get_attribute("data-action") for b in driver.find_elements(By.CSS_SELECTOR, "#actions-list button")]


def points(action):
    return re.findall(r"[a-z](?:1[0-2]|[0-9])|[bd]m", re.sub(r":.*$", "", re.sub(r"\([^)]*\)", "", action)))


def click_point(driver, point):
    """A real click (the browser's own) on the board's point."""
    hit = driver.find_element(By.CSS_SELECTOR, f"#board circle.hit[data-point='{point}']")
    try:
        hit.click()
    except WebDriverException:
        # Covered by the outcome's ring or a badge: the click goes to the point all the same.
        driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", hit)


def play_by_clicks(driver, choose):
    """Plays one of the seat's actions by clicks: a flip that is its point's only action by one
    click; else its first point, then its last (its point again for a flip)."""
    actions = my_actions(driver)
    if not actions:
        fail("no action listed on this seat's turn", driver)
    action = choose(actions)
    ps = points(action)
    before = (position(driver), ply_of(driver))
    from_here = [a for a in actions if points(a)[0] == ps[0]]
    click_point(driver, ps[0])
    if not (len(ps) == 1 and len(from_here) == 1):
        # The first click marks the piece and its targets.
        WebDriverWait(driver, 5).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#board circle.chosen"))
        click_point(driver, ps[-1])
    WebDriverWait(driver, 10).until(lambda d: (position(d), ply_of(d)) != before)
    return action


def ply_of(driver):
    return driver.find_element(By.ID, "board").get_attribute("data-ply") or ""


def wait(driver, what, until, seconds=20):
    try:
        WebDriverWait(driver, seconds).until(until)
    except Exception:
        fail(what, driver)


def control(word):
    """Asks the test that runs this script to STOP or START the service; waits until done."""
    print(word, flush=True)
    answer = sys.stdin.readline().strip()
    if answer != word.lower() + "ped" and answer != word.lower() + "ed":
        fail(f"asked to {word}, the test answered {answer!r}")


def connection(driver):
    el = driver.find_element(By.ID, "connection")
    return el.text if el.is_displayed() else ""


def two_friends():
    drivers = [browser(), browser()]
    try:
        first = drivers[0]
        # The page's own form deals the game: a friend, the links on the page.
        first.get(f"{BASE}/play/")
        wait(first, "the form", lambda d: len(Select(d.find_element(By.ID, "game")).options) > 1)
        Select(first.find_element(By.ID, "opponent")).select_by_value("friend")
        first.find_element(By.ID, "start").click()
        wait(first, "the game starts", lambda d: "token=" in d.current_url and position(d) != "")
        first.execute_script("window.loadedOnce = true")
        links = lambda d: d.find_elements(By.CSS_SELECTOR, "#links input")
        wait(first, "the seats' links", lambda d: len(links(d)) == 2)
        # The links stay (they used to vanish within 0.13 s, the page reloading).
        time.sleep(1.5)
        if len(links(first)) != 2 or not first.execute_script("return window.loadedOnce === true"):
            fail("the friend's link vanished (the page reloaded)", first)
        own = next(i for i in links(first) if i.get_attribute("data-seat") == "player1")
        if own.get_attribute("value") != first.current_url:
            fail(f"the page's own link {own.get_attribute('value')} is not its address {first.current_url}")
        copy = first.find_element(By.CSS_SELECTOR, "#links button[data-seat='player2']")
        copy.click()
        wait(first, "the copy button says so", lambda d: copy.text == "Copied")
        friend = next(i for i in links(first) if i.get_attribute("data-seat") == "player2")
        drivers[1].get(friend.get_attribute("value"))
        for d in drivers:
            wait(d, "the page shows the game", lambda d: position(d) != "")
        drivers[1].execute_script("window.loadedOnce = true")
        for ply in range(16):
            if ply == 8:
                # The service restarts mid-game: both pages say they are reconnecting, then
                # catch up without a reload.
                control("STOP")
                for d in drivers:
                    wait(d, "the page says it is reconnecting", lambda d: "Reconnecting" in connection(d))
                control("START")
                for d in drivers:
                    wait(d, "the page reconnects", lambda d: connection(d) == "", seconds=30)
            mover, other = drivers[ply % 2], drivers[(ply + 1) % 2]
            wait(mover, f"ply {ply + 1}: its turn", lambda d: status(d) == "Your turn." and my_actions(d))
            seen = position(other)
            # Moves before flips when there are some: the game gets going.
            play_by_clicks(mover, lambda a: next((x for x in a if "-" in x), a[ply % len(a)]))
            # The other page follows the stream: the ply arrives without a reload.
            wait(other, f"ply {ply + 1} reaches the other seat", lambda d: position(d) != seen)
            if position(other) != position(mover):
                fail(f"ply {ply + 1}: the two pages differ: {position(other)} / {position(mover)}")
        for d in drivers:
            if not d.execute_script("return window.loadedOnce === true"):
                fail("a page reloaded", d)
        drivers[1].find_element(By.ID, "resign").click()
        wait(drivers[0], "the winner is told", lambda d: status(d) == "You won by resignation.")
        wait(drivers[1], "the loser is told", lambda d: status(d) == "You lost by resignation.")
        for d in drivers:
            wait(d, "the review link", lambda d: re.search(r"/view/\?id=\d+$", d.find_element(By.ID, "review").get_attribute("href") or ""))
            errors = [e for e in console_errors(d) if "/v1/stream" not in e["message"]]
            if errors:
                fail(f"console errors: {errors}", d)
        print("two friends: dealt by the form, the friend's link copied, 16 plies by clicks "
              "across a restart, then a resignation:", status(drivers[0]), "/", status(drivers[1]))
    finally:
        for d in drivers:
            d.quit()


def dark_luzhanqi_against_the_engine():
    d = browser()
    try:
        d.get(f"{BASE}/play/")
        wait(d, "the form", lambda d: len(Select(d.find_element(By.ID, "game")).options) > 1)
        Select(d.find_element(By.ID, "game")).select_by_value("luzhanqi")
        wait(d, "the presets", lambda d: any(o.get_attribute("value") == "dark" for o in Select(d.find_element(By.ID, "preset")).options))
        Select(d.find_element(By.ID, "preset")).select_by_value("dark")
        Select(d.find_element(By.ID, "opponent")).select_by_value("100")
        d.find_element(By.ID, "start").click()
        wait(d, "the game starts", lambda d: "token=" in d.current_url and position(d) != "")
        from urllib.parse import parse_qs, urlparse
        me = {k: v[0] for k, v in parse_qs(urlparse(d.current_url).fragment).items()}
        for ply in range(0, 16, 2):
            wait(d, f"ply {ply + 1}: the seat's turn", lambda d: status(d) == "Your turn." and my_actions(d))
            told = post("/v1/view", {"game": "luzhanqi", "game_id": me["game_id"], "token": me["token"], "player": me["seat"]})
            if position(d) != told["position"]:
                fail(f"ply {ply}: the page shows {position(d)}, the seat is told {told['position']}")
            if "?" not in position(d):
                fail(f"ply {ply}: the enemy is not hidden: {position(d)}")
            if ply > 0 and not d.find_elements(By.CSS_SELECTOR, "#board .last"):
                fail(f"ply {ply}: the engine's last move is not marked", d)
            play_by_clicks(d, lambda a: a[(ply * 7) % len(a)])
        wait(d, "the engine answers", lambda d: status(d) == "Your turn.")
        d.find_element(By.ID, "resign").click()
        wait(d, "the end", lambda d: status(d) == "You lost by resignation.")
        games = json.loads(urllib.request.urlopen(f"{BASE}/v1/games?game=luzhanqi").read())
        stored = [g for g in games["games"] if g.get("reason") == "resignation"]
        if not stored:
            fail(f"no stored record: {games}")
        print("dark Luzhanqi against the engine: 16 plies, the seat's view at each, stored:", status(d))
    finally:
        d.quit()


def a_clock_runs_out():
    dealt = post("/v1/deal", {"clock": {"base_ms": 2000, "increment_ms": 0}})
    for seat in ["player1", "player2"]:
        listed = post("/v1/actions", {"game_id": dealt["game_id"], "token": dealt["seat_tokens"][seat]})
        post("/v1/play", {"game_id": dealt["game_id"], "token": dealt["seat_tokens"][seat],
                          "action": listed["actions"][0], "ply": listed["ply"]})
    d = browser()
    try:
        d.get(f"{BASE}/play/#game=banqi&game_id={dealt['game_id']}&seat=player1"
              f"&token={urllib.parse.quote(dealt['seat_tokens']['player1'])}")
        wait(d, "the clocks show", lambda d: d.find_elements(By.CSS_SELECTOR, ".seat .clock.running"))
        wait(d, "the flag falls", lambda d: status(d) == "You lost by time.", seconds=15)
        print("a clock runs out:", status(d))
    finally:
        d.quit()


import urllib.parse  # noqa: E402

# Each game's form choices and its board's coordinates (files + ranks).
GAMES = [("banqi", "tcga", 4 + 8), ("three-kingdoms", "three-kingdoms", 9 + 5),
         ("luzhanqi", "dark", 5 + 12), ("luzhanqi", "open", 5 + 12), ("luzhanqi", "flip", 5 + 12),
         ("xiangqi-3g", "xiangqi-3g", 9 + 10)]
DESKTOP, PHONE = (1280, 720), (390, 844)
WORDS = {
    "en": {"lost": "You lost by resignation.", "placed": "You finished", "declined": "declined the draw",
           "agreed": "Drawn by agreement.", "turn": "Your turn.", "lang": "en"},
    "zh-TW": {"lost": "你輸了（認輸）。", "placed": "你得第", "declined": "拒絕和棋", "agreed": "和棋（議和）。",
              "turn": "輪到你。", "lang": "zh-Hant"},
}


def inside(driver, selector):
    """Whether the element `selector` finds is wholly on the screen (looked up as it is
    measured: the board is drawn again as plies arrive)."""
    return driver.execute_script(
        "const e = document.querySelector(arguments[0]); if (!e) return false;"
        "const r = e.getBoundingClientRect();"
        "return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;",
        selector)


def every_game(game, preset, coordinates, size, language):
    where = f"{game} ({preset}) at {size[0]}×{size[1]} in {language}"
    words = WORDS[language]
    d = browser(size, language)
    try:
        d.get(f"{BASE}/play/")
        wait(d, f"{where}: the form", lambda d: len(Select(d.find_element(By.ID, "game")).options) > 1)
        if d.find_element(By.TAG_NAME, "html").get_attribute("lang") != words["lang"]:
            fail(f"{where}: the page is in {d.find_element(By.TAG_NAME, 'html').get_attribute('lang')}")
        name = d.find_element(By.ID, "name")
        name.clear()
        name.send_keys("Ann" if language == "en" else "安")
        Select(d.find_element(By.ID, "game")).select_by_value(game)
        wait(d, f"{where}: the presets", lambda d: any(o.get_attribute("value") == preset for o in Select(d.find_element(By.ID, "preset")).options))
        Select(d.find_element(By.ID, "preset")).select_by_value(preset)
        Select(d.find_element(By.ID, "opponent")).select_by_value("100")
        Select(d.find_element(By.ID, "seat")).select_by_value("player1")
        d.find_element(By.ID, "start").click()
        wait(d, f"{where}: my turn", lambda d: status(d) == words["turn"] and my_actions(d))
        # One screen: nothing scrolls; the board, the status and the actions are all in view.
        sizes = d.execute_script("const e = document.documentElement; return [e.scrollWidth, e.scrollHeight, innerWidth, innerHeight]")
        if sizes[0] > sizes[2] or sizes[1] > sizes[3]:
            fail(f"{where}: the page scrolls: {sizes}", d)
        for what in ["#board svg", "#status", "#resign", "#offer", "#bottom .seat"]:
            if not inside(d, what):
                fail(f"{where}: {what} is off the screen", d)
        found = len(d.find_elements(By.CSS_SELECTOR, "#board g.coordinate"))
        if found != coordinates:
            fail(f"{where}: {found} coordinates on the board, {coordinates} wanted", d)
        for ply in range(3):
            wait(d, f"{where}: my turn {ply + 1}", lambda d: (status(d) == words["turn"] and my_actions(d)) or d.find_element(By.ID, "status").get_attribute("data-over") == "yes")
            if d.find_element(By.ID, "status").get_attribute("data-over") == "yes":
                break
            if ply > 0 and not d.find_elements(By.CSS_SELECTOR, "#board .last"):
                fail(f"{where}: the engine's last move is not marked", d)
            play_by_clicks(d, lambda a: next((x for x in a if "-" in x), a[(ply * 5) % len(a)]) if ply else a[len(a) // 2])
        wait(d, f"{where}: the engine's reply", lambda d: status(d) == words["turn"] or d.find_element(By.ID, "status").get_attribute("data-over") == "yes")
        # The move list writes a revealed piece as the board does (`a1(g)` → `a1 士`).
        for cell in d.find_elements(By.CSS_SELECTOR, "#movelist td[data-action*='(']"):
            if "(" in cell.text or not any(ord(c) > 0x2000 for c in cell.text):
                fail(f"{where}: the move list writes {cell.get_attribute('data-action')!r} as {cell.text!r}", d)
        # A click that does nothing says why: an empty point, another's piece, a piece that
        # cannot move (a Banqi board may have none yet: every covered piece can be flipped).
        origins = {points(a)[0] for a in my_actions(d)}
        idle = [h.get_attribute("data-point") for h in d.find_elements(By.CSS_SELECTOR, "#board circle.hit")
                if h.get_attribute("data-point") not in origins]
        refused = ""
        if idle:
            click_point(d, idle[0])
            wait(d, f"{where}: a refused click's message", lambda d: d.find_element(By.ID, "message").text.strip())
            refused = d.find_element(By.ID, "message").text
        elif game != "banqi":
            fail(f"{where}: every point has an action", d)
        shots = os.environ.get("SCREENSHOTS")
        if shots:
            d.save_screenshot(os.path.join(shots, f"play-{game}-{preset}-{size[0]}x{size[1]}-{words['lang']}.png"))
        # A draw offer: the engine answers it, said on the page: it declines (most often, near
        # an even start), or accepts when its search says it stands worse (docs/engine.md).
        d.find_element(By.ID, "offer").click()
        wait(d, f"{where}: the engine's answer to the draw offer",
             lambda d: words["declined"] in d.find_element(By.ID, "said").text or status(d) == words["agreed"])
        if status(d) == words["agreed"]:
            answer = ended = status(d)
        else:
            answer = d.find_element(By.ID, "said").text
            d.find_element(By.ID, "resign").click()
            wait(d, f"{where}: the end, from my side", lambda d: status(d).startswith(words["lost"] if game != "three-kingdoms" else words["placed"]))
            ended = status(d)
        # A click after the end says so.
        click_point(d, d.find_element(By.CSS_SELECTOR, "#board circle.hit").get_attribute("data-point"))
        wait(d, f"{where}: a click after the end", lambda d: d.find_element(By.ID, "message").text.strip())
        wait(d, f"{where}: the review link", lambda d: re.search(r"/view/\?id=\d+$", d.find_element(By.ID, "review").get_attribute("href") or ""))
        # What each seat took (its pieces as the board writes them) and the whole final board.
        seats = 3 if game == "three-kingdoms" else 2
        wait(d, f"{where}: the pieces taken", lambda d: len(d.find_elements(By.CSS_SELECTOR, "#taken .row")) == seats)
        wait(d, f"{where}: the final board", lambda d: d.find_elements(By.CSS_SELECTOR, "#final-board svg"))
        errors = console_errors(d)
        if errors:
            fail(f"{where}: console errors {errors}", d)
        d.find_element(By.ID, "review").click()
        wait(d, f"{where}: the review opens", lambda d: d.find_element(By.ID, "board").get_attribute("data-ply") not in (None, ""))
        errors = console_errors(d)
        if errors:
            fail(f"{where}: console errors in the viewer {errors}", d)
        print(f"every game: {where}: one screen, {found} coordinates, refused: {refused!r}, "
              f"{answer!r}, {ended!r}, the review opens")
    finally:
        d.quit()


if not os.environ.get("SCREENSHOTS"):
    two_friends()
    dark_luzhanqi_against_the_engine()
    a_clock_runs_out()
for game, preset, coordinates in GAMES:
    every_game(game, preset, coordinates, DESKTOP, "en")
    every_game(game, preset, coordinates, PHONE, "zh-TW")
every_game("banqi", "tcga", 12, PHONE, "en")
every_game("banqi", "tcga", 12, DESKTOP, "zh-TW")
