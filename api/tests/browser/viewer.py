"""Drives the viewer (`GET /view/`) in headless Chromium, as a person would: for each stored
game it opens `/view/?id=N`, presses the right-arrow key once per ply and checks that the board
changes at every step and shows the ply asked for, that the last position is the record's final
position and the verdict is shown, that Home goes back to the start; then the previous/next
buttons and a click on the ply list. It saves a screenshot of the first screen of the first game.

Then, for each seat token given, it opens the viewer on that seat's game and checks it shows
exactly the positions as that seat is told them, ply by ply.

Usage: viewer.py BASE_URL GAMES_JSON SCREENSHOT_PNG
GAMES_JSON: {"games": [{"id": 1, "game": "banqi", "plies": 12, "final_position": "..."}, ...],
             "seats": [{"path": "/view/?game=…&game_id=…&token=…", "positions": ["...", ...]}]}
Prints one line per game; exits 1 with the reason on the first failure.
"""

import json
import sys
import re
import time
from urllib.parse import quote

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # No network but the service (Chromium's background connections are refused here).
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 "--force-device-scale-factor=1", "--window-size=1000,720"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def no_console_errors(driver, where):
    """Nothing failed on the page: no console error, no failed request (issue 60)."""
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"{where}: console errors {errors}"


def board(driver):
    b = driver.find_element(By.ID, "board")
    return b.get_attribute("data-ply"), b.get_attribute("data-position"), b.get_attribute("innerHTML")


def wait_for_ply(driver, ply, what):
    try:
        WebDriverWait(driver, 20).until(lambda d: board(d)[0] == str(ply))
    except Exception:
        message = driver.find_element(By.ID, "message").text
        raise AssertionError(f"{what}: the board never showed ply {ply} (at {board(driver)[0]}; {message})")


def explored(driver, name, ply, action):
    """The explorer panel shows ply `ply`'s position with `action` (what this game played
    next, as every seat saw it) marked, played by at least this game."""
    try:
        WebDriverWait(driver, 20).until(
            lambda d: d.find_element(By.ID, "explorer").get_attribute("data-ply") == str(ply)
            and d.find_elements(By.CSS_SELECTOR, "#explorer tr.played"))
    except Exception:
        text = driver.find_element(By.ID, "explorer").text
        raise AssertionError(f"{name}: no explorer panel at ply {ply} ({text!r})")
    row = driver.find_element(By.CSS_SELECTOR, "#explorer tr.played")
    assert row.get_attribute("data-action") == action, \
        f"{name}: the explorer marks {row.get_attribute('data-action')!r}, the game played {action!r}"
    assert int(row.get_attribute("data-games")) >= 1, f"{name}: {row.text!r}"


def check_game(driver, base, game, shot=None):
    name = f"{game['game']} (stored game {game['id']})"
    driver.get(f"{base}/view/?id={game['id']}")
    wait_for_ply(driver, 0, name)
    # The engine's review arrives after the board: its graph, a point per position.
    try:
        WebDriverWait(driver, 60).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#graph svg")
            or "No review" in d.find_element(By.ID, "graph").text
            or "side to move" in d.find_element(By.ID, "graph").text)
    except Exception:
        raise AssertionError(f"{name}: no review graph ({driver.find_element(By.ID, 'graph').text!r})")
    graph = driver.find_elements(By.CSS_SELECTOR, "#graph svg")
    said = driver.find_element(By.ID, "graph").text
    if game["game"] == "three-kingdoms":
        # Three seats: a search scores the side to move only; no one seat's graph, said so.
        assert not graph and "side to move" in said, f"{name}: {said!r}"
    else:
        assert graph and graph[0].get_attribute("data-plies") == str(game["plies"] + 1), \
            f"{name}: the review graph ({said!r})"
    # The explorer panel follows the ply shown: the stored games' actions from here, this
    # game's next one marked.
    explored(driver, name, 0, game["explored"][0])
    if shot:
        time.sleep(0.3)  # the score line arrives after the board
        driver.save_screenshot(shot)
    body = driver.find_element(By.TAG_NAME, "body")
    seen = {board(driver)[2]}
    previous = board(driver)[2]
    for ply in range(1, game["plies"] + 1):
        body.send_keys(Keys.ARROW_RIGHT)
        wait_for_ply(driver, ply, name)
        if ply == 1:
            explored(driver, name, 1, game["explored"][1])
        picture = board(driver)[2]
        assert picture != previous, f"{name}: ply {ply} did not change the board"
        previous = picture
        seen.add(picture)
    _, position, picture = board(driver)
    assert position == game["final_position"], f"{name}: ends at {position!r}, the record at {game['final_position']!r}"
    # The picture is the service's drawing of that position (its title is the position).
    title = driver.find_element(By.CSS_SELECTOR, "#board svg title").get_attribute("textContent")
    assert title.split(" ")[0] == game["final_position"].split(" ")[0], f"{name}: the picture shows {title!r}"
    status = driver.find_element(By.ID, "status").text
    assert status, f"{name}: no words at the end"
    # Words for people, not codes: the ending, the captures as pieces, the settlement.
    score = driver.find_element(By.ID, "score").text
    for text in (status, score):
        codes = re.findall(r"\b(?:player[123]|[a-z]+_[a-z_]+)\b", text)
        assert not codes, f"{name}: codes where people read: {codes} in {text!r}"
    assert " took " in status, f"{name}: no captures in words ({status!r})"
    where = driver.find_element(By.ID, "where").text
    assert where == f"ply {game['plies']} / {game['plies']}", f"{name}: {where!r}"
    body.send_keys(Keys.HOME)
    wait_for_ply(driver, 0, name)
    # The buttons and the ply list step too.
    driver.find_element(By.ID, "next").click()
    wait_for_ply(driver, 1, name)
    driver.find_element(By.ID, "prev").click()
    wait_for_ply(driver, 0, name)
    items = driver.find_elements(By.CSS_SELECTOR, "#plies li")
    assert len(items) == game["plies"], f"{name}: {len(items)} plies listed"
    items[-1].click()
    wait_for_ply(driver, game["plies"], name)
    assert "current" in items[-1].get_attribute("class"), f"{name}: the last ply is not marked"
    # A link to a ply opens the game there; the address follows the ply shown.
    middle = game["plies"] // 2
    driver.get(f"{base}/view/?id={game['id']}#ply={middle}")
    wait_for_ply(driver, middle, f"{name} at #ply={middle}")
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    wait_for_ply(driver, min(middle + 1, game["plies"]), name)
    assert driver.current_url.endswith(f"#ply={min(middle + 1, game['plies'])}"), driver.current_url
    no_console_errors(driver, name)
    print(f"{name}: {game['plies']} plies stepped, {len(seen)} distinct boards, ends at the record's final position, and a link to a ply opens it")


def check_seat(driver, base, seat):
    positions = seat["positions"]
    last = len(positions) - 1
    name = f"seat view {seat['path'].split('token=')[0]}"
    driver.get(base + seat["path"])
    wait_for_ply(driver, last, name)
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    for ply, told in enumerate(positions):
        if ply > 0:
            body.send_keys(Keys.ARROW_RIGHT)
        wait_for_ply(driver, ply, name)
        shown = board(driver)[1]
        assert shown == told, f"{name}: ply {ply} shows {shown!r}, the seat is told {told!r}"
    no_console_errors(driver, name)
    print(f"{name}: {last} plies, each the position as the seat is told it")


TCGA = """INITIAL
* 10:49am Jan 10, 2022
* chan vs ai
* 1 2 2 2 2 2 5 1 2 2 2 2 2 5
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* first 1
* time 900
* 1. b8(p) b6(R)
* 2. c8(M) b5(p)
"""


def check_other_ways_in(driver, base):
    """A pasted TCGA record, and a JSON record in the address."""
    driver.get(f"{base}/view/")
    driver.find_element(By.CSS_SELECTOR, "#paste summary").click()
    driver.find_element(By.ID, "pasted").send_keys(TCGA)
    driver.find_element(By.ID, "open-pasted").click()
    wait_for_ply(driver, 0, "pasted TCGA")
    items = driver.find_elements(By.CSS_SELECTOR, "#plies li")
    plies = [i.text.split(".", 1)[-1].strip() for i in items]
    message = driver.find_element(By.ID, "message").text
    assert plies == ["b8(p)", "b6(R)", "c8(M)", "b5(p)"], f"pasted TCGA: the plies {plies} ({message})"
    record = json.dumps({"game": "banqi", "preset": "tcga", "actions": ["b8(p)", "b6(R)"]})
    driver.get(f"{base}/view/?record={quote(record)}")
    wait_for_ply(driver, 0, "a record in the address")
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    wait_for_ply(driver, 2, "a record in the address")
    print("a pasted TCGA record and a record in the address: opened and stepped")


def check_stored_list(driver, base, games):
    """The stored games are listed to browse, newest first, with their players, result and
    date, filtered by game: each a link that opens it."""
    driver.get(f"{base}/view/")
    driver.find_element(By.CSS_SELECTOR, "#stored summary").click()
    WebDriverWait(driver, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#stored-list a"))
    items = driver.find_elements(By.CSS_SELECTOR, "#stored-list li")
    assert len(items) == min(len(games), 20), f"{len(items)} stored games listed"
    ids = [int(i.get_attribute("data-id")) for i in items]
    assert ids == sorted(ids, reverse=True), f"not newest first: {ids}"
    for item in items:
        text = item.text
        assert " vs " in text and " plies" in text, f"a listed game without its players or length: {text!r}"
        assert not re.search(r"^\d+\. ", text), f"numbered twice: {text!r}"
    # Filtered by game: only that game's, each marked by its game's name.
    one = games[-1]["game"]
    from selenium.webdriver.support.ui import Select
    Select(driver.find_element(By.ID, "stored-game")).select_by_value(one)
    driver.find_element(By.CSS_SELECTOR, "#stored-filter button").click()
    expected = sorted((g["id"] for g in games if g["game"] == one), reverse=True)[:20]
    WebDriverWait(driver, 20).until(lambda d: [int(i.get_attribute("data-id")) for i in d.find_elements(By.CSS_SELECTOR, "#stored-list li")] == expected)
    driver.find_elements(By.CSS_SELECTOR, "#stored-list a")[0].click()
    wait_for_ply(driver, 0, "the newest stored game of a game, from the list")
    no_console_errors(driver, "the stored games list")
    print(f"the stored games listed newest first ({len(items)}), with players, result and date, filtered by game; each a link that opens it")


def main():
    base, games_file, shot = sys.argv[1:4]
    plan = json.load(open(games_file))
    driver = browser()
    try:
        for i, game in enumerate(plan["games"]):
            check_game(driver, base, game, shot if i == 0 else None)
        for seat in plan["seats"]:
            check_seat(driver, base, seat)
        check_other_ways_in(driver, base)
        check_stored_list(driver, base, plan["games"])
    except AssertionError as e:
        print(f"FAILED: {e}")
        sys.exit(1)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
