"""What kind of thing a tool is, so that "I use VS Code" (an editor) does not supersede "my
stack is Java 21" (a language): "I use X" fills the slot of X's category. A tool no list
knows fills a slot of its own name ("tool:slack"): only another version of the same tool
("I use Slack 5" after "I use Slack 4") replaces it."""

from __future__ import annotations

import re

CATEGORIES: dict[str, tuple[str, ...]] = {
    # the languages, runtimes and frameworks an application is written in: "my stack is ..."
    "tech stack": (
        "java", "python", "rust", "go", "golang", "typescript", "javascript", "kotlin", "scala",
        "c#", "c++", "c", "ruby", "php", "swift", "elixir", "erlang", "haskell", "clojure",
        "dart", "flutter", "julia", "perl", "lua", "zig", "ocaml", "f#", "objective-c", "r",
        "node", "node.js", "nodejs", "deno", "bun", "react", "vue", "angular", "svelte",
        "next.js", "nextjs", "django", "flask", "fastapi", "spring", "spring boot", "rails",
        "ruby on rails", "laravel", ".net", "dotnet", "asp.net", "jvm", "groovy", "fortran",
        "cobol", "pascal", "delphi", "matlab", "solidity", "jdk", "openjdk",
    ),
    "editor": (
        "vs code", "vscode", "visual studio code", "visual studio", "vim", "neovim", "nvim",
        "emacs", "intellij", "intellij idea", "idea", "pycharm", "webstorm", "goland", "clion",
        "rider", "rubymine", "phpstorm", "sublime", "sublime text", "atom", "cursor", "zed",
        "xcode", "android studio", "eclipse", "netbeans", "helix", "nano", "notepad++", "kate",
        "textmate", "windsurf", "jupyter", "jupyterlab",
    ),
    "operating system": (
        "macos", "mac os", "os x", "osx", "linux", "windows", "ubuntu", "debian", "fedora",
        "arch", "arch linux", "manjaro", "nixos", "centos", "rhel", "freebsd", "openbsd",
        "chromeos", "mint", "linux mint", "pop!_os", "wsl",
    ),
    "browser": ("chrome", "google chrome", "firefox", "safari", "edge", "microsoft edge",
                "brave", "arc", "opera", "vivaldi", "chromium", "tor browser"),
    "shell": ("bash", "zsh", "fish", "powershell", "nushell", "oh my zsh"),
    "terminal": ("iterm", "iterm2", "alacritty", "kitty", "wezterm", "ghostty", "warp",
                 "windows terminal", "tmux"),
    "database": ("postgres", "postgresql", "mysql", "sqlite", "mongodb", "mongo", "redis",
                 "mariadb", "oracle", "cassandra", "dynamodb", "elasticsearch", "clickhouse",
                 "duckdb", "neo4j", "sql server", "cockroachdb", "supabase", "firebase"),
    "cloud": ("aws", "amazon web services", "gcp", "google cloud", "azure", "digitalocean",
              "heroku", "vercel", "netlify", "fly.io", "cloudflare", "hetzner", "linode"),
    "phone": ("iphone", "pixel", "galaxy", "samsung galaxy", "oneplus", "xiaomi", "huawei"),
    "version control": ("git", "mercurial", "svn", "subversion", "perforce"),
}
_BY_NAME = sorted(((name, cat) for cat, names in CATEGORIES.items() for name in names),
                  key=lambda pair: -len(pair[0]))
_BOUNDARY = re.compile(r"[a-z0-9+#]")


def tool_category(value: str) -> str | None:
    """The category of the tool ``value`` starts with ("vs code 1.9" -> "editor"), or None."""
    text = value.strip().lower()
    for name, category in _BY_NAME:
        if text.startswith(name) and not _BOUNDARY.match(text[len(name):len(name) + 1]):
            return category
    return None


def tool_attribute(value: str) -> str:
    """The slot attribute for "I use ``value``": its category, else "tool:<its name>"."""
    category = tool_category(value)
    if category is not None:
        return category
    words = re.findall(r"[^\W\d_][\w.+#-]*", value.lower())
    return f"tool:{words[0]}" if words else "tool"
