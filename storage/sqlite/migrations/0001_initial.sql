-- Ladderbot schema 1. The event log is the truth; every other table is a projection
-- kept in the same transaction, or operational state (reports, challenges).
-- Every table carries the ladder id first.

CREATE TABLE ladders (
    id            INTEGER PRIMARY KEY,
    chat          TEXT    NOT NULL,          -- platform + chat id, e.g. telegram:-100123
    name          TEXT    NOT NULL,
    base_settings TEXT    NOT NULL,          -- JSON, as created: replays start from it
    settings      TEXT    NOT NULL,          -- JSON, current (projection of the log)
    created_at    INTEGER NOT NULL,
    clock         INTEGER NOT NULL,          -- jobs have run up to this instant
    is_default    INTEGER NOT NULL DEFAULT 0,
    channel       TEXT,
    public        INTEGER NOT NULL DEFAULT 0,
    seq           INTEGER NOT NULL DEFAULT 0, -- events in the log
    season        TEXT,                       -- open season (YYYY-MM)
    last_decay    TEXT,                       -- last decay day applied
    next_match    INTEGER NOT NULL DEFAULT 1,
    next_challenge INTEGER NOT NULL DEFAULT 1,
    UNIQUE (chat, name)
);

CREATE TABLE events (
    ladder INTEGER NOT NULL REFERENCES ladders(id),
    seq    INTEGER NOT NULL,
    at     INTEGER NOT NULL,
    kind   TEXT    NOT NULL,
    body   TEXT    NOT NULL,                  -- compact JSON (storage/codec.py)
    match  INTEGER,                           -- the match a `match` event confirms
    key    TEXT,                              -- job key: decay:DAY, season:MONTH
    PRIMARY KEY (ladder, seq)
) WITHOUT ROWID;
CREATE UNIQUE INDEX events_job_key ON events (ladder, key) WHERE key IS NOT NULL;
CREATE INDEX events_match ON events (ladder, match) WHERE match IS NOT NULL;
CREATE INDEX events_corrections ON events (ladder, kind) WHERE kind IN ('void', 'result');

CREATE TABLE snapshots (
    ladder INTEGER NOT NULL REFERENCES ladders(id),
    seq    INTEGER NOT NULL,
    body   TEXT    NOT NULL,
    PRIMARY KEY (ladder, seq)
) WITHOUT ROWID;

CREATE TABLE players (
    ladder       INTEGER NOT NULL REFERENCES ladders(id),
    id           INTEGER NOT NULL,
    user         TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    member       INTEGER NOT NULL DEFAULT 0,
    available    INTEGER NOT NULL DEFAULT 1,
    rating       REAL    NOT NULL,
    rung         INTEGER,
    games        INTEGER NOT NULL DEFAULT 0,
    rated_games  INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    losses       INTEGER NOT NULL DEFAULT 0,
    draws        INTEGER NOT NULL DEFAULT 0,
    rated_wins   INTEGER NOT NULL DEFAULT 0,
    last_played  INTEGER,
    season_gain  REAL    NOT NULL DEFAULT 0,
    season_games INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (ladder, id),
    UNIQUE (ladder, user)
) WITHOUT ROWID;
-- The leaderboard: members by rating, with what a table row shows.
CREATE INDEX players_by_rating ON players (ladder, member, rating DESC, id, rated_games,
                                           last_played);
CREATE INDEX players_by_rung ON players (ladder, rung) WHERE rung IS NOT NULL;

CREATE TABLE matches (
    ladder       INTEGER NOT NULL REFERENCES ladders(id),
    id           INTEGER NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('pending', 'confirmed', 'disputed', 'voided')),
    reporter     INTEGER NOT NULL,
    reported_at  INTEGER NOT NULL,
    result       TEXT    NOT NULL,
    challenge    INTEGER,
    forfeit      INTEGER NOT NULL DEFAULT 0,
    confirmed_at INTEGER,
    disputed_at  INTEGER,
    voided_at    INTEGER,
    note         TEXT    NOT NULL DEFAULT '',
    rated        INTEGER,
    PRIMARY KEY (ladder, id)
) WITHOUT ROWID;
CREATE INDEX matches_open ON matches (ladder, id) WHERE status IN ('pending', 'disputed');

CREATE TABLE match_players (
    ladder INTEGER NOT NULL,
    player INTEGER NOT NULL,
    match  INTEGER NOT NULL,
    PRIMARY KEY (ladder, player, match)
) WITHOUT ROWID;

CREATE TABLE changes (
    ladder INTEGER NOT NULL REFERENCES ladders(id),
    seq    INTEGER NOT NULL,
    player INTEGER NOT NULL,
    at     INTEGER NOT NULL,
    before REAL    NOT NULL,
    after  REAL    NOT NULL,
    kind   TEXT    NOT NULL,
    match  INTEGER,
    rated  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (ladder, seq, player)
) WITHOUT ROWID;
CREATE INDEX changes_by_player ON changes (ladder, player, seq);
CREATE INDEX changes_by_time ON changes (ladder, at) WHERE kind = 'match' AND rated = 1;
CREATE INDEX changes_by_match ON changes (ladder, match) WHERE match IS NOT NULL;

CREATE TABLE challenges (
    ladder      INTEGER NOT NULL REFERENCES ladders(id),
    id          INTEGER NOT NULL,
    challenger  INTEGER NOT NULL,
    challenged  INTEGER NOT NULL,
    status      TEXT    NOT NULL,
    issued_at   INTEGER NOT NULL,
    answered_at INTEGER,
    reminded    INTEGER NOT NULL DEFAULT 0,
    match       INTEGER,
    reason      TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (ladder, id)
) WITHOUT ROWID;
CREATE INDEX challenges_unfinished ON challenges (ladder, id)
    WHERE status IN ('open', 'accepted');

CREATE TABLE seasons (
    ladder      INTEGER NOT NULL REFERENCES ladders(id),
    season      TEXT    NOT NULL,
    place       INTEGER NOT NULL,
    player      INTEGER NOT NULL,
    gain        REAL    NOT NULL,
    rated_games INTEGER NOT NULL,
    PRIMARY KEY (ladder, season, place)
) WITHOUT ROWID;

CREATE TABLE hall_of_fame (
    ladder INTEGER NOT NULL REFERENCES ladders(id),
    pos    INTEGER NOT NULL,                  -- order of entry
    season TEXT    NOT NULL,
    place  INTEGER NOT NULL,
    player INTEGER NOT NULL,
    gain   REAL    NOT NULL,
    PRIMARY KEY (ladder, pos)
) WITHOUT ROWID;

CREATE TABLE audit (
    ladder INTEGER NOT NULL REFERENCES ladders(id),
    id     INTEGER NOT NULL,
    at     INTEGER NOT NULL,
    by     TEXT    NOT NULL,
    action TEXT    NOT NULL,
    reason TEXT    NOT NULL,
    match  INTEGER,
    player INTEGER,
    detail TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (ladder, id)
) WITHOUT ROWID;

CREATE TABLE seen_messages (
    chat    TEXT    NOT NULL,
    message TEXT    NOT NULL,
    reply   TEXT    NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (chat, message)
) WITHOUT ROWID;
