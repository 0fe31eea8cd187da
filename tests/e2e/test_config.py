"""config.toml: the example documents every setting, and what it documents works."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import ConfigError, dashboard_missing, load
from core.domain.setting_keys import SETTING_SPECS
from core.domain.settings import DUEL_LEAGUES, preset
from tests.support.chat import Chat

EXAMPLE = Path(__file__).resolve().parents[2] / "config.example.toml"


def test_example_loads_with_defaults() -> None:
    config = load(EXAMPLE, env={})
    assert config.database_path == "ladder.db"
    assert config.telegram.token == "" and config.discord.token == ""
    assert config.policy.defaults == ()


def test_example_documents_every_ladder_setting() -> None:
    text = EXAMPLE.read_text()
    for key in SETTING_SPECS:
        assert re.search(rf"^# {key} = ", text, re.M), f"{key} is not documented"


def test_every_documented_example_value_is_accepted(tmp_path: Path) -> None:
    # Uncomment the [ladder] examples: they must all parse (the multi-line leagues too).
    text = EXAMPLE.read_text()
    ladder = text.split("[ladder]")[1].split("# A community's own rulebook")[0]
    body = re.sub(r"^# ?(?=[a-z_]+ = |\s+\[)", "", ladder, flags=re.M)
    body = "\n".join(line for line in body.splitlines() if not line.startswith("#"))
    custom = tmp_path / "c.toml"
    custom.write_text("[ladder]\n" + body)
    config = load(custom, env={})
    defaults = dict(config.policy.defaults)
    assert defaults["k_bands"] == ((2100.0, 24.0), (2400.0, 16.0))
    assert defaults["leagues"][1:] == DUEL_LEAGUES[1:]
    assert defaults["tables"] == ()


def test_custom_preset_and_defaults(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[ladder]\ntimezone = "Europe/Amsterdam"\n\n'
                    '[presets.club]\nbase = "duel"\nk = 24\nfloor = "none"\n')
    config = load(path, env={})
    club = config.policy.settings_for("club")
    assert (club.k, club.floor, club.timezone, club.preset) == (24.0, None, "Europe/Amsterdam",
                                                                "duel")
    assert config.policy.settings_for("duel").timezone == "Europe/Amsterdam"
    assert config.policy.settings_for("duel").k == preset("duel").k


async def test_custom_preset_in_chat(store: object, tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[presets.club]\nbase = "duel"\nk = 24\nconfirm = false\n')
    chat = Chat(store, policy=load(path, env={}).policy)
    text = await chat.ok("mod", "/ladder create main preset=club")
    assert "with the club rulebook (based on duel" in text
    await chat.join("a", "b")
    await chat.ok("a", "/report win @b")
    assert await chat.ratings() == {"a": 1012, "b": 988}
    assert "one of: warlight, fame, duel, nhwc, dutch, glicko2, openskill, club" in \
        await chat.refused(
        "mod", "/ladder create x preset=chess")


def test_environment_tokens_override_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[telegram]\ntoken = "from-file"\n')
    assert load(path, env={}).telegram.token == "from-file"
    assert load(path, env={"LADDERBOT_TELEGRAM_TOKEN": "from-env"}).telegram.token == "from-env"
    url = "postgresql://ladder@db/ladder"
    assert load(path, env={"LADDERBOT_DATABASE_URL": url}).database_url == url


@pytest.mark.parametrize(
    ("text", "message"),
    [("[database\npath=1", "is not valid TOML"),
     ("[ladder]\nk = -1", r"\[ladder\]: k=-1: expected a number above 0"),
     ("[presets.x]\nk = 3", "needs base = one of the five rulebooks"),
     ("[presets.x]\nbase = 'chess'", "There is no preset called 'chess'"),
     ("[ladder]\ncolour = 'red'", "no setting called 'colour'"),
     ("[discord]\nmoderator_role = 'Mods'", "moderator_role is a role id"),
     ("[telegram]\nwebhook_url = 'http://x/hook'", "must be an https:// address"),
     ("[telegram]\nlisten = '0.0.0.0'", r"\[telegram\] listen is HOST:PORT"),
     ("[web]\nlisten = 'localhost'", r"\[web\] listen is HOST:PORT"),
     ("[web]\nlisten = 'localhost:٨٠٨٠'", r"\[web\] listen is HOST:PORT"),
     ("[web]\nlisten = 'localhost:80800'", r"\[web\] listen is HOST:PORT"),
     ("[discord]\nmoderator_role = '١٢٣'", "moderator_role is a role id"),
     ("[ladder]\ncalibration = 99999999999999999999", "expected a whole number from 0 to 1,000"),
     ("[backup]\nkeep = 0", "at least 1"),
     ("[bot]\nlanguage = 'de'", r"\[bot\] language is one of en, ru, nl \(not 'de'\)"),
     ("[ladder]\nlanguage = 'de'", r"language=de: expected one of en, ru, nl")],
)
def test_bad_configuration_is_explained(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load(path, env={})


def test_missing_file_is_explained(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="There is no config file"):
        load(tmp_path / "nope.toml", env={})


def test_the_bots_language_is_new_ladders_unless_the_ladder_section_says(
        tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[bot]\nlanguage = 'ru'\n")
    config = load(path, env={})
    assert config.policy.language == "ru"
    assert config.policy.settings_for("duel").language == "ru"
    path.write_text("[bot]\nlanguage = 'ru'\n[ladder]\nlanguage = 'nl'\n")
    config = load(path, env={})
    assert (config.policy.language, config.policy.settings_for("dutch").language) == ("ru", "nl")
    assert load(None, env={}).policy.settings_for("duel").language == "en"


def test_the_cache_budget_is_read_and_checked(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[database]\ncache_mb = 64\n")
    assert load(path, env={}).cache_mb == 64
    assert load(None, env={}).cache_mb == 256
    for bad in ("0", "-1", '"lots"', "true"):
        path.write_text(f"[database]\ncache_mb = {bad}\n")
        with pytest.raises(ConfigError, match=r"\[database\] cache_mb"):
            load(path, env={})


def test_the_dashboard_says_what_it_needs(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    assert dashboard_missing(load(None, env={})) == [
        "[web] listen (the pages are not served)",
        "[web] url (the address people reach)",
        "a login: for Telegram's, a Telegram token (it checks the login widget's "
        "signature); [web] telegram_login (the bot's username, set with BotFather's "
        "/setdomain to [web] url's host); or for Discord's, LADDERBOT_DISCORD_CLIENT_ID (or "
        "[discord] client_id); LADDERBOT_DISCORD_CLIENT_SECRET"]
    path.write_text('[web]\nlisten = "127.0.0.1:8080"\nurl = "https://l.example"\n')
    both = {"LADDERBOT_DISCORD_CLIENT_ID": "1", "LADDERBOT_DISCORD_CLIENT_SECRET": "s"}
    assert dashboard_missing(load(path, env=both)) == []
    path.write_text('[web]\nlisten = "127.0.0.1:8080"\nurl = "https://l.example"\n'
                    'telegram_login = "@LadderBot"\nsession_days = 2\n')
    config = load(path, env={"LADDERBOT_TELEGRAM_TOKEN": "1:x"})
    assert dashboard_missing(config) == [] and config.web_telegram_login == "LadderBot"
    assert config.web_session_days == 2
    path.write_text("[web]\nsession_days = 0\n")
    with pytest.raises(ConfigError, match="session_days"):
        load(path, env={})
