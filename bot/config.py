"""config.toml: the database, ladder defaults, custom presets and chat platforms."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.domain.errors import SettingError
from core.domain.numerals import is_digits
from core.domain.setting_keys import parse_settings, validate
from core.domain.settings import Language, Policy, Settings, preset
from core.i18n import LANGUAGES
from storage.sql import tuning


class ConfigError(Exception):
    """The configuration file cannot be used; the message says why."""


@dataclass(frozen=True)
class TelegramConfig:
    """The [telegram] section."""

    token: str = ""
    base_url: str = ""
    webhook_url: str = ""
    listen: str = ""


@dataclass(frozen=True)
class DiscordConfig:
    """The [discord] section."""

    token: str = ""
    api_base_url: str = ""
    gateway_url: str = ""
    moderator_role: str = ""
    client_id: str = ""  # the application's, for the dashboard's Discord login
    client_secret: str = ""


@dataclass(frozen=True)
class Config:
    """Everything the bot reads from its configuration file and environment."""

    database_path: str = "ladder.db"
    database_url: str = ""
    cache_mb: float = tuning.CACHE_MB  # the standings kept in memory (storage/sql/cache.py)
    policy: Policy = field(default_factory=Policy)
    telegram: TelegramConfig = field(default_factory=TelegramConfig)
    discord: DiscordConfig = field(default_factory=DiscordConfig)
    web_listen: str = ""
    web_url: str = ""
    web_telegram_login: str = ""  # the bot's Telegram username, for the login widget
    web_session_days: float = 7.0  # how long a dashboard session lasts
    backup_dir: str = ""
    backup_keep: int = 7
    log_level: str = "INFO"
    source: str = ""


def _setting_text(key: str, value: Any) -> str:
    """A TOML value written as the `key=value` text chat commands use."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        if all(isinstance(v, list) and len(v) == 2 for v in value):
            return ",".join(f"{a}:{b}" for a, b in value)
        return ",".join(str(v) for v in value)
    return str(value)


def _typed_settings(table: dict[str, Any], where: str) -> dict[str, Any]:
    """Typed setting changes from a TOML table (leagues may be given as a list here)."""
    changes: dict[str, Any] = {}
    plain = []
    for key, value in table.items():
        if key == "leagues" and isinstance(value, list):
            try:
                changes["leagues"] = tuple(
                    (float("-inf") if i == 0 else float(t), str(n)) for i, (t, n) in
                    enumerate(value))
            except (TypeError, ValueError):
                raise ConfigError(f"{where}: leagues is a list of [from_rating, name] pairs, "
                                  "the first one's rating is ignored") from None
        else:
            plain.append((key, _setting_text(key, value)))
    try:
        changes.update(parse_settings(plain))
    except SettingError as error:
        raise ConfigError(f"{where}: {error}") from None
    return changes


def host_port(listen: str, default_host: str) -> tuple[str, int]:
    """HOST:PORT (the host may be left out) as a host and a port number."""
    host, _, port = listen.rpartition(":")
    if not is_digits(port) or int(port) > 65535:
        raise ConfigError(f"listen is HOST:PORT, a host and a port number, e.g. "
                          f"{default_host}:8443 (not {listen!r})")
    return host or default_host, int(port)


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{name}] must be a table")
    return value


def _language(bot: dict[str, Any]) -> Language:
    """[bot] language: what new ladders speak, and what the bot says where no ladder is."""
    language = str(bot.get("language", "en"))
    if language not in LANGUAGES:
        raise ConfigError(f"[bot] language is one of {', '.join(LANGUAGES)} "
                          f"(not {language!r})")
    return language  # type: ignore[return-value]


def _read(path: str | Path | None) -> dict[str, Any]:
    """The config file's tables (none without a file)."""
    if path is None:
        return {}
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"There is no config file at {path}.") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from None


def _presets(tables: dict[str, Any]) -> list[tuple[str, Settings]]:
    """The community's own presets, each a rulebook's preset with changes, checked."""
    presets: list[tuple[str, Settings]] = []
    for name, table in tables.items():
        if not isinstance(table, dict) or "base" not in table:
            raise ConfigError(f"[presets.{name}] needs base = one of the five rulebooks")
        try:
            base = preset(str(table["base"]))
            changes = _typed_settings({k: v for k, v in table.items() if k != "base"},
                                      f"[presets.{name}]")
            presets.append((name, validate(base.with_changes(changes), changes)))
        except SettingError as error:
            raise ConfigError(f"[presets.{name}]: {error}") from None
    return presets


def _check_listen(*addresses: tuple[str, str, str]) -> None:
    """Each (section, listen address, default host) given reads as host:port."""
    for where, value, host in addresses:
        if value:
            try:
                host_port(value, host)
            except ConfigError as error:
                raise ConfigError(f"{where} {error}") from None


def _role(discord: dict[str, Any]) -> str:
    role = str(discord.get("moderator_role", ""))
    if role and not is_digits(role):
        raise ConfigError("[discord] moderator_role is a role id (digits; in Discord: right-click "
                          "the role, Copy Role ID)")
    return role


def _webhook(telegram: dict[str, Any]) -> str:
    webhook = str(telegram.get("webhook_url", ""))
    if webhook and not webhook.startswith("https://"):
        raise ConfigError("[telegram] webhook_url must be an https:// address: Telegram only "
                          "delivers to HTTPS (a proxy in front may end TLS and pass to listen)")
    return webhook


def _backup_keep(backup: dict[str, Any]) -> int:
    keep = backup.get("keep", 7)
    if not isinstance(keep, int) or isinstance(keep, bool) or keep < 1:
        raise ConfigError("[backup] keep is how many daily backups to keep: a whole number, "
                          "at least 1")
    return keep


def _session_days(web: dict[str, Any]) -> float:
    days = web.get("session_days", 7)
    if not isinstance(days, int | float) or isinstance(days, bool) or not 0 < days <= 365:
        raise ConfigError("[web] session_days is how long a dashboard login lasts: a number "
                          "of days above 0, at most 365 (7 if left out)")
    return float(days)


def _cache_mb(database: dict[str, Any]) -> float:
    cache_mb = database.get("cache_mb", tuning.CACHE_MB)
    if not isinstance(cache_mb, int | float) or isinstance(cache_mb, bool) or cache_mb <= 0:
        raise ConfigError("[database] cache_mb is the memory, in MB, the ladders' standings "
                          f"may keep: a number above 0 ({tuning.CACHE_MB} if left out)")
    return float(cache_mb)


def load(path: str | Path | None, env: dict[str, str] | None = None) -> Config:
    """Read a config file (None: defaults only) and the token environment variables."""
    env = dict(os.environ) if env is None else env
    data = _read(path)
    database = _section(data, "database")
    defaults = _typed_settings(_section(data, "ladder"), "[ladder]")
    presets = _presets(_section(data, "presets"))
    telegram = _section(data, "telegram")
    discord = _section(data, "discord")
    role, webhook = _role(discord), _webhook(telegram)
    listen = str(telegram.get("listen", ""))
    web = _section(data, "web")
    _check_listen(("[telegram]", listen, "0.0.0.0"),
                  ("[web]", str(web.get("listen", "")), "127.0.0.1"))
    backup = _section(data, "backup")
    keep = _backup_keep(backup)
    days = _session_days(web)
    log = _section(data, "log")
    cache_mb = _cache_mb(database)
    language = _language(_section(data, "bot"))
    if language != "en":  # new ladders speak it unless [ladder] says otherwise
        defaults.setdefault("language", language)
    return Config(
        database_path=str(database.get("path", "ladder.db")),
        database_url=env.get("LADDERBOT_DATABASE_URL") or str(database.get("url", "")),
        cache_mb=cache_mb,
        policy=Policy(tuple(defaults.items()), tuple(presets),
                      str(web.get("url", "")) or (f"http://{web['listen']}"
                                                   if web.get("listen") else ""),
                      language),
        telegram=TelegramConfig(
            token=env.get("LADDERBOT_TELEGRAM_TOKEN") or str(telegram.get("token", "")),
            base_url=str(telegram.get("base_url", "")),
            webhook_url=webhook,
            listen=listen,
        ),
        discord=DiscordConfig(
            token=env.get("LADDERBOT_DISCORD_TOKEN") or str(discord.get("token", "")),
            api_base_url=str(discord.get("api_base_url", "")),
            gateway_url=str(discord.get("gateway_url", "")),
            moderator_role=role,
            client_id=env.get("LADDERBOT_DISCORD_CLIENT_ID") or str(discord.get("client_id", "")),
            client_secret=env.get("LADDERBOT_DISCORD_CLIENT_SECRET", ""),
        ),
        web_listen=str(web.get("listen", "")),
        web_url=str(web.get("url", "")),
        web_telegram_login=str(web.get("telegram_login", "")).lstrip("@"),
        web_session_days=days,
        backup_dir=str(backup.get("dir", "")),
        backup_keep=keep,
        log_level=str(log.get("level", "INFO")).upper(),
        source=str(path or ""),
    )


def dashboard_missing(config: Config) -> list[str]:
    """What the dashboard still needs (nothing: it is served): its pages, and a way in by
    Telegram or by Discord."""
    missing = []
    if not config.web_listen:
        missing.append("[web] listen (the pages are not served)")
    if not config.web_url:
        missing.append("[web] url (the address people reach)")
    telegram = [] if config.telegram.token else ["a Telegram token (it checks the login "
                                                  "widget's signature)"]
    if not config.web_telegram_login:
        telegram.append("[web] telegram_login (the bot's username, set with BotFather's "
                        "/setdomain to [web] url's host)")
    discord = [name for name, value in (
        ("LADDERBOT_DISCORD_CLIENT_ID (or [discord] client_id)", config.discord.client_id),
        ("LADDERBOT_DISCORD_CLIENT_SECRET", config.discord.client_secret)) if not value]
    if telegram and discord:
        missing.append(f"a login: for Telegram's, {'; '.join(telegram)}; or for Discord's, "
                       f"{'; '.join(discord)}")
    return missing
