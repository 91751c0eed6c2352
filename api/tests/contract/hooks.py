"""Schemathesis hooks of the contract test (api/tests/contract.rs).

The built-in `positive_data_acceptance` check fails on any schema-valid request refused; some
refusals are right all the same, because JSON Schema cannot say what makes them wrong (piece
counts, legality, a token's seal). This check replaces it: a schema-valid request may be
refused only with one of the problem codes listed here for its operation, each with the reason
the schema cannot express it. Any other refusal of a schema-valid request fails the run.
"""

import schemathesis

# Refusals allowed on every operation that takes a game's position, record or ruleset: problem
# types (`/problems/<name>`), each with the reason a schema cannot express the constraint.
GAME_SEMANTICS = {
    "malformed-position": "a position string's pattern checks its alphabet and field count; the "
    "width of each rank and the fields' grammar depend on the game named in another field",
    "invalid-position": "a well-formed position that cannot occur (piece counts, covered "
    "pieces and pool disagreeing)",
    "malformed-action": "an action's pattern checks its alphabet; which forms exist depends on "
    "the game named in another field",
    "malformed-layout": "a layout's pattern checks length and alphabet; the piece counts (and "
    "a Luzhanqi setup's placement rules) are the game's",
    "malformed-record": "a record's fields depend on its game (a layout of the right game, "
    "seats the game has)",
    "unknown-preset": "a preset is a string: which names exist depends on the game",
    "invalid-ruleset": "options of another game, or a combination the rules forbid",
    "invalid-record": "a record's actions must replay: legality is the rules' to say",
    "unknown-game": "a record's `game` is a string (a record from the wild may name any game: "
    "`POST /v1/validate` answers with a verdict); the other operations play only the games "
    "of `GET /v1/game-types`",
    "illegal-action": "whether an action is legal is the rules' to say",
    "invalid-token": "a token is opaque: only the seal says whether it opens, and for which game",
    "wrong-seat": "a seat token acts only for its seat: which seat it holds is sealed",
    "game-not-found": "a game id is a string: which games the referee's ledger holds is the "
    "ledger's",
    "ledger-conflict": "with a token, what a request states must be the ledger's game: its "
    "history, preset and options are the ledger's, not the schema's",
    "already-played": "whether a ply is taken is the ledger's to say",
    "too-many-plies": "a record's length limit is the service's configuration (`--max-plies`)",
    "settlement-overflow": "a stake times the bonus must fit in 64 bits: a product of two "
    "fields",
    "refused": "whether a game's life allows a resignation, a draw, an abort or a claim is the "
    "ledger's game's to say (who moved, what offers stand, how long the seat to move is silent)",
}

# Refusals of one field given another, by (problem type, field): JSON Schema could say some of
# these with `not`/`dependentRequired`, but the generators then fill the document with rarely
# useful shapes; the fields stay independent in the schema and the rule is in their text.
CROSS_FIELD = {
    ("bad-parameter", "record"): "a position and a record together: one or the other",
    ("bad-parameter", "layout"): "a token and a layout together: one or the other",
    ("bad-parameter", "game"): "a record of another game than `game`",
    ("bad-parameter", "player"): "a seat the game does not have (Banqi has two seats), or none "
    "named with the game's own token (a seat's token names its own)",
    ("bad-parameter", "width"): "an animation's frames (its record's plies) times a frame's "
    "pixels (its width) stay within the service's pixel budget",
    ("invalid-deal", "players"): "at most one name per seat: two or three, as the game named in "
    "`game` has",
    ("invalid-deal", "engines"): "the engine plays some seats, not all, and only seats the "
    "game named in `game` has",
    ("invalid-deal", "game"): "a table plays a game played for coins: which games are is the "
    "rules' (the game named in `game`)",
    ("invalid-deal", "options.max_plies"): "a game's cap may not exceed the service's "
    "configuration (`--max-plies`)",
}

SEMANTIC = {
    "POST /v1/actions": GAME_SEMANTICS,
    "POST /v1/play": GAME_SEMANTICS,
    "POST /v1/deal": GAME_SEMANTICS,
    "POST /v1/view": GAME_SEMANTICS,
    "POST /v1/lifecycle": GAME_SEMANTICS,
    "POST /v1/stream-ticket": GAME_SEMANTICS,
    "GET /v1/stream": GAME_SEMANTICS,
    "POST /v1/analyze": GAME_SEMANTICS,
    "POST /v1/review": GAME_SEMANTICS,
    "POST /v1/render": GAME_SEMANTICS,
    "GET /v1/render.svg": GAME_SEMANTICS,
    "POST /v1/render.png": GAME_SEMANTICS,
    "GET /v1/render.png": GAME_SEMANTICS,
    "POST /v1/replay.png": GAME_SEMANTICS,
    "POST /v1/score": GAME_SEMANTICS,
    "POST /v1/score/position": GAME_SEMANTICS,
    "POST /v1/validate": GAME_SEMANTICS,
    "POST /v1/replay": GAME_SEMANTICS,
    "POST /v1/games": GAME_SEMANTICS,
    "POST /v1/luzhanqi/setup": GAME_SEMANTICS,
    "POST /v1/tables": GAME_SEMANTICS,
    "POST /v1/tables/state": {
        **GAME_SEMANTICS,
        "table-not-found": "a table id is a string: which tables the referee keeps is the "
        "store's",
    },
    "POST /v1/tables/answer": {
        **GAME_SEMANTICS,
        "table-not-found": "a table id is a string: which tables the referee keeps is the "
        "store's",
    },
    "GET /v1/presets/{name}": {
        "not-found": "a preset name is a string: which names exist depends on the game",
    },
    "GET /v1/explorer": {
        **GAME_SEMANTICS,
        "bad-parameter": "`options` is a JSON object written in a query string (a pattern "
        "cannot check JSON), and a date's pattern checks its digits, not that its month and "
        "day exist",
    },
    "GET /v1/games": {
        "bad-parameter": "a date's pattern checks its digits, not that its month and day exist "
        "(2026-02-31)",
    },
    "GET /v1/players": {
        "unknown-preset": "a preset is a string: which names exist depends on the game",
    },
    "GET /v1/players/{name}": {
        "not-found": "a name is a string: which players the store's games name is the store's",
    },
    "GET /v1/games/{id}": {
        "not-found": "an id is a number: which games are stored is the store's",
        "not-exportable": "TCGA text exists only for games under plain tcga rules",
    },
}


@schemathesis.check
def refusals_are_semantic(ctx, response, case):
    """A schema-valid request is refused only for a listed semantic reason."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return None
    if not 400 <= response.status_code < 500:
        return None
    try:
        body = response.json()
        kind = body.get("type", "").removeprefix("/problems/")
    except Exception:  # not a problem document: the content checks report it
        body, kind = None, None
    allowed = SEMANTIC.get(case.operation.label, {})
    field = body.get("field") if isinstance(body, dict) else None
    detail = body.get("detail", "") if isinstance(body, dict) else ""
    if kind in allowed or (kind, field) in CROSS_FIELD:
        return None
    # JSON Schema counts 21427.0 as an integer; the service reads integers as JSON writes them
    # (serde: no fraction), and says so.
    if kind == "malformed-json" and "invalid type: floating point" in detail:
        return None
    raise AssertionError(
        f"Schema-valid request refused: {response.status_code} `{kind}` is not a listed "
        f"semantic constraint of {case.operation.label} (api/tests/contract/hooks.py)"
    )


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    """`POST /v1/games` takes NDJSON records as text: the schema's string, as UTF-8."""
    return value.encode("utf-8")


@schemathesis.hook
def filter_case(ctx, case):
    """An NDJSON body is text on the wire: a body of another JSON type cannot be sent as it
    (every line of text is answered line by line: stored, duplicate, invalid or unreadable)."""
    return case.media_type != "application/x-ndjson" or isinstance(case.body, str)
