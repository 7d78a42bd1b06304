"""One Config, read from ENGRAMDB_* environment variables and an optional TOML file."""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from .errors import ConfigError


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    return Path(base) / "engramdb" / "memory.db"


MAX_HALF_LIFE_DAYS = 36500.0

# Other systems' names for a setting, read when its ENGRAMDB_* variable is not set (the
# ENGRAMDB_* one wins when both are): AGENT_MEMORY_DB is the database location of the
# TypeScript sleep-cycle memory MCP server (docs/migrating.md).
ENV_ALIASES: dict[str, tuple[str, ...]] = {"url": ("AGENT_MEMORY_DB",)}


def env_name(setting: str) -> str | None:
    """The environment variable a setting is read from now: ENGRAMDB_<NAME>, else the first of
    its aliases that is set, else None."""
    for name in (f"ENGRAMDB_{setting.upper()}", *ENV_ALIASES.get(setting, ())):
        if os.environ.get(name):
            return name
    return None


def _flag(value: Any) -> bool:
    """A yes/no setting: a bool, or 1/0, true/false, yes/no, on/off (an environment value)."""
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"a yes/no setting is 1/0, true/false, yes/no or on/off, got {value!r}")


def server_settings() -> dict[str, Any]:
    """What a long-running door (`engramdb serve`, `engramdb mcp`) opens its Memory with: the
    automatic sleep off the writer's path, unless ENGRAMDB_SLEEP_IN_BACKGROUND says otherwise
    (engine/sleeper.py)."""
    return {} if env_name("sleep_in_background") else {"sleep_in_background": True}


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
MIN_SLEEP_EVERY_S = 60.0


def parse_every(value: object) -> float:
    """A period as ``Config.sleep_every`` takes it -> seconds (0: off). "" / "off" / "0" are
    off; "90s", "30m", "6h", "1d" (or a number of seconds) at least a minute."""
    return _period(value, MIN_SLEEP_EVERY_S, "sleep_every must be off or a period of at least "
                   "a minute such as 30m, 6h or 1d")


def parse_cold_after(value: object) -> float:
    """``Config.cold_after`` -> seconds (0: off, no cold tier): how long a memory stays archived
    and unchanged before a sleep moves it to the cold tier ("180d", "12h"; a number alone is
    seconds). Off: "" / "off" / "0"."""
    return _period(value, 1.0, "cold_after must be off or a period such as 90d, 180d or 12h")


def _period(value: object, minimum: float, message: str) -> float:
    text = str(value).strip().lower()
    if text in ("", "off", "0", "no", "false", "never"):
        return 0.0
    unit = _UNITS.get(text[-1:], None)
    number = text[:-1] if unit else text
    try:
        seconds = float(number) * (unit or 1)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < minimum:
        raise ConfigError(f"{message}, got {value!r}")
    return seconds


MAX_EMBED_WORKERS = 256   # model worker processes (Config.embed_workers)
EMBED_MODES = ("sync", "deferred")  # when a write's vector is computed (Config.embed)
SYNCHRONOUS = ("full", "normal")    # SQLite's synchronous pragma (Config.synchronous)
_CONVERT: dict[str, Any] = {"int": int, "float": float, "bool": _flag, "int | None": int,
                            "float | None": float, "bool | None": _flag}
_WORDS = {int: "a whole number", float: "a number", _flag: "yes or no (1/0, true/false, yes/no, "
          "on/off)"}
# The chat endpoint's tuning: what each value must be (llm_setting; the OPENAI_* names too)
LLM_RULES = {"temperature": "a number from 0 to 2", "max_tokens": "a whole number of at least 1",
             "timeout": "a number of seconds above 0", "use_env_proxy": _WORDS[_flag]}


def llm_setting(name: str, value: Any, label: str) -> Any:
    """A chat endpoint's ``name`` (temperature, max_tokens, timeout, use_env_proxy) from
    ``value`` (a number, a bool, or an environment text) checked against LLM_RULES; a
    ConfigError naming ``label`` (the setting or the environment variable) when it does not
    fit."""
    found: Any = None
    try:
        if name == "use_env_proxy":
            return _flag(value)
        if isinstance(value, bool):
            raise ValueError(value)
        if name == "max_tokens":
            found = value if isinstance(value, int) else int(str(value).strip())
            ok = found >= 1
        else:
            found = float(value)
            ok = math.isfinite(found) and (0 <= found <= 2 if name == "temperature"
                                           else found > 0)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ConfigError(f"{label} must be {LLM_RULES[name]}, got {value!r}")
    return found


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class Config:
    url: str = ""                      # file path, ":memory:" or postgresql://...
    embedder: str = "default"          # registry name
    user: str = "default"
    agent: str = "default"
    threads: int = 1                   # BLAS and model threads
    embed_workers: int | None = None   # model worker processes of a bulk write (None: one per
    # `threads` cores available, capped by memory; 1: none, the model runs in this process)
    embed: str = "sync"                # sync: a write returns with its vector; deferred: the
    # vector is computed after the write returns, in batches (engine/deferred.py)
    max_content_bytes: int = 65536
    preset: str = "default"            # recall preset
    busy_timeout_ms: int = 10000
    synchronous: str = "full"          # SQLite: full, an acknowledged write survives power loss;
    # normal, it survives a crash of the process but the last ones may roll back on power loss
    # or an OS crash (README "Reliability"; bench/results/reliability.md)
    half_life_p1_days: float = 365.0   # strength halves when unused (dynamics/strength.py)
    half_life_p2_days: float = 90.0
    half_life_p3_days: float = 14.0
    archive_below: float = 0.15        # a decay pass archives core memories weaker than this
    gist_max_gap_days: float = 30.0    # a gist's episodes: each within this of the last one
    gist_max_span_days: float = 92.0   # and all within this span (dynamics/periods.py)
    encoding: str = "cl100k_base"      # token counting: cl100k_base, o200k_base, estimate
    session_budget: int = 4000         # working memory: tokens in a session's window
    session_keep: int = 6              # working memory: recent turns always kept verbatim
    offload_tokens: int = 1000         # working memory: a turn above this goes to a blob
    summarizer: str = "extractive"     # working memory: extractive, or llm (OpenAI-compatible)
    http_max_body_bytes: int = 1048576  # HTTP door: a larger request body is refused (413)
    http_max_url_bytes: int = 8192     # both HTTP doors: a longer request line (URL) gets 414
    http_max_header_bytes: int = 65536  # both HTTP doors: a larger request head gets 431
    mcp_max_message_bytes: int = 4194304  # MCP: a longer stdio line (-32600) or HTTP body (413)
    http_max_k: int = 100              # HTTP door: most hits one recall may ask for
    http_max_batch: int = 500          # HTTP door: most memories one batch write may carry
    http_max_page: int = 500           # HTTP door: most memories one list page may carry
    metrics_public: bool = False       # HTTP door: /metrics without a key (else an admin key)
    assoc_slots: int = 2               # at most this many of k hits come by association
    llm_url: str = ""                  # OpenAI-compatible base URL (".../v1"): extraction, gists
    llm_model: str = ""                # the chat model asked to extract memories or word gists
    llm_api_key: str = ""              # sent as a Bearer token when set
    llm_timeout: float | None = None   # seconds before a silent endpoint counts as failed
    # (None: 30, unless the agent finds OPENAI_COMPATIBLE_TIMEOUT / OPENAI_TIMEOUT)
    llm_temperature: float | None = None  # 0 to 2 (None: 0, or the agent's OPENAI_* names)
    llm_max_tokens: int | None = None  # a cap on every reply's tokens (None: no cap)
    llm_use_env_proxy: bool | None = None  # HTTP(S)_PROXY from the environment (None: yes)
    shape_judge: str = "auto"          # ambiguous supersession: auto (the LLM when configured),
    #                                    llm, rules (write/shapejudge.py)
    auto_sleep_importance: float = 7.5  # sleep once this much importance was written; 0: never
    sleep_in_background: bool = False  # that sleep runs on a thread, not in the write
    # (engine/sleeper.py; on in `engramdb serve` and `engramdb mcp`)
    sleep_every: str = "off"           # a period ("6h"): sleep every scope with activity
    cold_after: str = "off"            # a period ("180d"): a sleep moves memories archived and
    # unchanged this long to the cold tier, which a recall searches only when asked (store/cold)
    review_due: int = 0                # boot/context show this many memories due for review; 0: off
    still_true_days: float = 180.0     # a P2 fact unconfirmed this long is queued "still true?"
    # (longer for higher priority and importance; dynamics/stilltrue.py); 0: never
    still_true_shown: int = 3          # boot/context ask about this many of them; 0: none
    coming_up_days: float = 7.0        # context's "Coming up": pending items due and events
    # dated within this many days, and the active goal's topics (attention/prefetch.py); 0: off
    profile_budget: int = 2000         # MEMORY.md tokens; boot warns from 80% of it; 0: no warning
    relevance_floor: float = 0.25      # recall drops hits less relevant (0..1; 0 keeps all);
    # in a scope of 20 memories or more (bench/results/abstain.md: what it costs and buys)
    answer_floor: float = 0.25         # the same where an LLM reads the hits: MCP recall,
    # context(), the agent's recall tool, the mem0 and LangGraph facades; on LoCoMo it abstains
    # on 3 of 4 off-topic questions for R@10 -0.000 (bench/results/abstain.md)
    pii: str = "keep"                  # personal data in a write: keep, mask or refuse
    pii_scopes: str = ""               # per scope: "alice=mask, bob/helper=refuse" (write/privacy)
    query_cache: int = 512             # query vectors kept by their text (embed/querycache); 0: off
    similarity: str = "cosine"         # how alike two memories are: a registered similarity
    conflict: str = "statements"       # and conflict function (compare.py, registry.py)

    def __post_init__(self) -> None:
        for name in ("half_life_p1_days", "half_life_p2_days", "half_life_p3_days",
                     "gist_max_gap_days", "gist_max_span_days"):
            value = getattr(self, name)
            if not _number(value) or not 0 < value <= MAX_HALF_LIFE_DAYS:
                raise ConfigError(f"{name} must be a number of days above 0 and at most "
                                  f"{MAX_HALF_LIFE_DAYS:g} (100 years), got {value!r}")
        for name in ("http_max_body_bytes", "http_max_k", "http_max_batch", "http_max_page",
                     "http_max_url_bytes", "http_max_header_bytes", "mcp_max_message_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name} must be a positive integer, got {value!r}")
        if not isinstance(self.assoc_slots, int) or isinstance(self.assoc_slots, bool) or \
                not 0 <= self.assoc_slots <= 100:
            raise ConfigError(f"assoc_slots must be an integer from 0 to 100, got "
                              f"{self.assoc_slots!r}")
        if isinstance(self.profile_budget, bool) or not isinstance(self.profile_budget, int) \
                or self.profile_budget < 0:
            raise ConfigError(f"profile_budget must be a number of tokens from 0 (off) up, got "
                              f"{self.profile_budget!r}")
        if isinstance(self.query_cache, bool) or not isinstance(self.query_cache, int) or \
                not 0 <= self.query_cache <= 1_000_000:
            raise ConfigError(f"query_cache must be a number of query vectors from 0 (off) to "
                              f"1000000, got {self.query_cache!r}")
        value = self.embed_workers
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= MAX_EMBED_WORKERS):
            raise ConfigError(f"embed_workers must be a whole number of processes from 1 (the "
                              f"model in this process) to {MAX_EMBED_WORKERS}, got {value!r}")
        if isinstance(self.review_due, bool) or not isinstance(self.review_due, int) or \
                not 0 <= self.review_due <= 100:
            raise ConfigError(f"review_due must be an integer from 0 (off) to 100, got "
                              f"{self.review_due!r}")
        self._check_still_true()
        value = self.archive_below
        if not _number(value) or not 0 <= value < 1:
            raise ConfigError(f"archive_below must be a weight from 0 to below 1, got {value!r}")
        self._check_working()
        self._check_pii()
        self._check_comparers()
        if not isinstance(self.synchronous, str) or self.synchronous not in SYNCHRONOUS:
            raise ConfigError(f"synchronous must be full (an acknowledged write survives power "
                              f"loss) or normal (it survives a crash of the process), got "
                              f"{self.synchronous!r}")
        for name in ("relevance_floor", "answer_floor"):
            value = getattr(self, name)
            if not _number(value) or not 0 <= value <= 1:
                raise ConfigError(f"{name} must be a number from 0 to 1 (0 keeps every hit), "
                                  f"got {value!r}")

    def _check_still_true(self) -> None:
        for name in ("still_true_days", "coming_up_days"):
            value = getattr(self, name)
            if not _number(value) or not 0 <= value <= MAX_HALF_LIFE_DAYS:
                raise ConfigError(f"{name} must be a number of days from 0 (off) to "
                                  f"{MAX_HALF_LIFE_DAYS:g}, got {value!r}")
        value = self.still_true_shown
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
            raise ConfigError(f"still_true_shown must be an integer from 0 (none) to 100, got "
                              f"{value!r}")

    def _check_working(self) -> None:
        from .text.tokens import ENCODINGS

        if self.encoding not in ENCODINGS:
            raise ConfigError(f"unknown token encoding {self.encoding!r}: use one of "
                              f"{', '.join(ENCODINGS)}")
        for name in ("session_budget", "session_keep", "offload_tokens"):
            value = getattr(self, name)
            low = 0 if name == "session_keep" else 1
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ConfigError(f"{name} must be an integer of at least {low}, got {value!r}")
        if self.summarizer not in ("extractive", "llm"):
            raise ConfigError(f"summarizer must be extractive or llm, got {self.summarizer!r}")
        value = self.auto_sleep_importance
        if not _number(value) or not 0 <= value < math.inf:
            raise ConfigError("auto_sleep_importance must be a number from 0 (never) up, "
                              f"got {value!r}")
        if not isinstance(self.sleep_every, str):
            raise ConfigError(f"sleep_every must be text such as 6h, got {self.sleep_every!r}")
        parse_every(self.sleep_every)
        if not isinstance(self.cold_after, str):
            raise ConfigError(f"cold_after must be text such as 180d, got {self.cold_after!r}")
        parse_cold_after(self.cold_after)
        if self.embed not in EMBED_MODES:
            raise ConfigError(f"embed must be one of {', '.join(EMBED_MODES)}, got "
                              f"{self.embed!r}")
        if bool(self.llm_url) != bool(self.llm_model):
            raise ConfigError("llm_url and llm_model go together: set both or neither")
        for name in ("timeout", "temperature", "max_tokens", "use_env_proxy"):
            value = getattr(self, f"llm_{name}")
            if value is not None:   # kept typed: "no" given outright is False, not a truthy text
                object.__setattr__(self, f"llm_{name}", llm_setting(name, value, f"llm_{name}"))
        if self.shape_judge not in ("auto", "rules", "llm"):
            raise ConfigError(f"shape_judge must be auto, rules or llm, got {self.shape_judge!r}")
        if self.shape_judge == "llm" and not self.llm_url:
            raise ConfigError("shape_judge='llm' needs llm_url and llm_model")

    def _check_comparers(self) -> None:
        for name in ("similarity", "conflict"):   # registered names: checked at open
            if not isinstance(getattr(self, name), str) or not getattr(self, name).strip():
                raise ConfigError(f"{name} must name a registered {name} function, got "
                                  f"{getattr(self, name)!r}")

    def _check_pii(self) -> None:
        from .text.piipolicy import check_policy, parse_scopes

        check_policy("pii", self.pii)
        if not isinstance(self.pii_scopes, str):
            raise ConfigError(f"pii_scopes must be text, got {self.pii_scopes!r}")
        parse_scopes(self.pii_scopes)

    @classmethod
    def load(cls, file: str | os.PathLike[str] | None = None, **overrides: Any) -> Config:
        values: dict[str, Any] = {}
        source: dict[str, str] = {}       # where each value came from, for the error messages
        path = file or os.environ.get("ENGRAMDB_CONFIG")
        if path:
            try:
                with open(path, "rb") as fh:
                    values.update(tomllib.load(fh).get("engramdb", {}))
            except (OSError, tomllib.TOMLDecodeError) as exc:
                raise ConfigError(f"cannot read config file {path}: {exc}") from exc
            source.update({k: f"{k} in {path}" for k in values})
        for f in fields(cls):
            env = env_name(f.name)
            if env is not None:
                values[f.name] = os.environ[env]
                source[f.name] = env
        given = {k: v for k, v in overrides.items() if v is not None}
        values.update(given)
        source.update({k: k for k in given})
        known = {f.name: f for f in fields(cls)}
        unknown = set(values) - set(known)
        if unknown:
            raise ConfigError(f"unknown setting(s): {', '.join(sorted(unknown))}")
        typed = {k: llm_setting(k[4:], v, source[k]) if k[4:] in LLM_RULES else
                 _typed(v, _CONVERT.get(str(known[k].type), str), source[k])
                 for k, v in values.items()}
        try:
            return replace(cls(), **typed)
        except ConfigError as exc:
            named = [source[k] for k in typed if str(exc).startswith(f"{k} ")
                     and source[k] != k]
            if named:
                raise ConfigError(f"{exc} (set by {named[0]})") from None
            raise


def _typed(value: Any, convert: Any, source: str) -> Any:
    try:
        return convert(value)
    except ValueError as exc:
        what = _WORDS.get(convert)
        if what is None:
            raise ConfigError(f"bad setting {source}: {exc}") from exc
        raise ConfigError(f"bad setting {source}: {what} is needed, got {value!r}") from None
