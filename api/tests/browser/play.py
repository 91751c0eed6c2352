"""Plays on the page `/play/` in headless Chromium, by clicks, as people would (issue 43).

1. Two browser sessions, one per seat of a Banqi game dealt by the page's own form with a
   friend's links: the links stay on the first page, the second seat's is copied with its
   button and opened in the second session; each plays its turns by clicking a piece on the
   board, then where it goes (twice on a covered piece: a flip), and sees the other's plies
   arrive without reloading. After 8 plies the service is stopped (both pages say they are
   reconnecting) and started again: the pages catch up without a reload and play on; after
   16 plies the second resigns with its button, and both pages say the game is over.
2. A dark Luzhanqi game against the engine, dealt from the page's own form: at every ply the
   page shows the position as the seat is told it (enemy pieces `?`) — checked against the
   seat's own `/v1/view` — until it resigns; the record is then stored.
3. A clock runs out: a game with a 2 s clock, nobody moves after the first two plies, and
   the page says the game is over on time.

Usage: play.py BASE_URL
Prints one line per part; exits 1 with the reason on the first failure. To restart the
service it prints STOP (then START) alone on a line and waits for `stopped` (`started`) on
its standard input.
"""

import json
import sys
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE = sys.argv[1]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--force-device-scale-factor=1", "--window-size=420,900"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


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
    return [b.get_attribute("data-action") for b in driver.find_elements(By.CSS_SELECTOR, "#moves button")]


def points(action):
    import re
    return re.findall(r"[a-z](?:1[0-2]|[0-9])", re.sub(r"\([^)]*\)", "", action))


def click_point(driver, point):
    driver.execute_script(
        "document.querySelector(`#board circle[data-point='${arguments[0]}']`)"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true}))", point)


def play_by_clicks(driver, choose):
    """Plays one of the seat's actions by clicking its first point, then its last."""
    actions = my_actions(driver)
    if not actions:
        fail("no action listed on this seat's turn", driver)
    action = choose(actions)
    ps = points(action)
    before = position(driver)
    click_point(driver, ps[0])
    # The first click marks the piece and its targets.
    WebDriverWait(driver, 5).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#board circle.chosen"))
    click_point(driver, ps[-1])
    WebDriverWait(driver, 10).until(lambda d: position(d) != before)
    return action


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
        for d in drivers:
            wait(d, "the end reaches both pages", lambda d: "resignation" in status(d))
        print("two friends: dealt by the form, the friend's link copied, 16 plies by clicks "
              "across a restart, then a resignation:", status(drivers[0]))
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
            play_by_clicks(d, lambda a: a[(ply * 7) % len(a)])
        wait(d, "the engine answers", lambda d: status(d) == "Your turn.")
        d.find_element(By.ID, "resign").click()
        wait(d, "the end", lambda d: "resignation" in status(d))
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
        wait(d, "the clocks show", lambda d: d.find_elements(By.CSS_SELECTOR, "#clocks span.running"))
        wait(d, "the flag falls", lambda d: "by time" in status(d), seconds=15)
        print("a clock runs out:", status(d))
    finally:
        d.quit()


import urllib.parse  # noqa: E402

two_friends()
dark_luzhanqi_against_the_engine()
a_clock_runs_out()
