"""The offline /docs page's Markdown (server/docs.py): code spans, bold, lists and this
server's links become HTML; everything else stays text (escaped), a link elsewhere included;
and each route's try-it-out starts from a body with its required fields."""

from __future__ import annotations

import engramdb
from engramdb.server import create_app
from engramdb.server.docs import inline, markdown, render_docs


def test_markdown_becomes_html_and_nothing_else_does() -> None:
    assert inline("run `engramdb keys create` **now**") == \
        "run <code>engramdb keys create</code> <strong>now</strong>"
    assert inline("`a **b** <c>`") == "<code>a **b** &lt;c&gt;</code>"   # code is code
    assert inline("<script>x</script> [docs](/docs)") == \
        '&lt;script&gt;x&lt;/script&gt; <a href="/docs">docs</a>'
    assert "<a" not in inline("[there](javascript:alert(1))")   # only this server's pages
    assert markdown("One\nline.\n\n- a `b`\n- 记忆") == \
        "<p>One line.</p><ul><li>a <code>b</code></li><li>记忆</li></ul>"


def test_the_docs_page_renders_and_offers_try_it() -> None:
    with engramdb.open(":memory:", embedder="hashing") as mem:
        html = render_docs(create_app(mem).openapi())
    assert "<code>engramdb keys create</code>" in html and "`" not in html.split("<body")[1]
    assert html.count("<details class=try>") > 40
    assert 'data-path="/v1/memories/{memory_id}"' in html
    start = html.index('data-path="/v1/memories/batch"')
    assert "&quot;content&quot;: &quot;&quot;" in html[start:start + 600]
    assert "http://" not in html and "https://" not in html
