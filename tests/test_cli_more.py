"""`engramdb update`, `engramdb sources` and `engramdb procedure triggered` through typer's
CliRunner (fixtures from test_cli.py), Chinese and English."""

from __future__ import annotations

import json

import test_cli
from test_cli import remember

clean_env, db, cli, cli_json = test_cli.clean_env, test_cli.db, test_cli.cli, test_cli.cli_json


def test_update_changes_fields_as_a_new_version(cli, cli_json):  # type: ignore[no-untyped-def]
    mid = remember(cli_json, "我住在柏林")
    rec = cli_json("update", mid, "--content", "我住在奥斯陆", "--people", "小明",
                   "--metadata", '{"source": "chat"}')
    assert (rec["content"], rec["people"], rec["version"]) == ("我住在奥斯陆", ["小明"], 2)
    assert rec["metadata"] == {"source": "chat"}
    shown = cli("update", mid, "--content", "I live in Oslo now").stdout
    assert "I live in Oslo now" in shown
    versions = cli_json("history", mid)
    assert [v["memory"]["content"] for v in versions] == [
        "我住在柏林", "我住在奥斯陆", "I live in Oslo now"]


def test_update_bad_input_exit_codes(cli, cli_json, db):  # type: ignore[no-untyped-def]
    mid = remember(cli_json, "I like tea")
    assert "nothing to update" in cli("update", mid, code=4).stderr
    assert "no memory" in cli("update", "nosuch", "--content", "x", code=3).stderr
    assert "not valid JSON" in cli("update", mid, "--metadata", "{", code=4).stderr
    cli("update", mid, "--kind", "gossip", code=4)
    cli("update", mid, "--at", "soon", code=4)
    assert cli_json("get", mid)["version"] == 1                     # nothing was written


def test_sources_lists_the_turns_of_an_extracted_memory(  # type: ignore[no-untyped-def]
        cli, cli_json, tmp_path):
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "I moved to Oslo last month"},
                                {"role": "user", "content": "我对花生过敏"}]), encoding="utf-8")
    report = cli_json("ingest", str(chat), "--session", "c1")
    fact = next(x["memory"] for x in report["extracted"] if "花生" in x["memory"]["content"])
    found = cli_json("sources", fact["id"])
    assert [r["content"] for r in found] == ["我对花生过敏"]
    assert "我对花生过敏" in cli("sources", fact["id"]).stdout
    cli("sources", "core://user/nobody", code=3)


def test_procedure_triggered(cli, cli_json):  # type: ignore[no-untyped-def]
    proc = cli_json("procedure", "add", "Book travel", "--step", "compare", "--step", "book",
                    "--trigger", "trip", "--trigger", "旅行")
    fired = cli_json("procedure", "triggered", "我的旅行计划")
    assert [t["id"] for t in fired] == [proc["id"]] and fired[0]["on_query"] == ["旅行"]
    assert "fired" in cli("procedure", "triggered", "a trip to Oslo").stdout
    assert cli_json("procedure", "triggered", "nothing here") == []


def test_count_follows_the_list_filters(cli, cli_json):  # type: ignore[no-untyped-def]
    remember(cli_json, "我喜欢绿茶", "--kind", "preference")
    remember(cli_json, "I went to Oslo", "--kind", "event")
    gone = remember(cli_json, "I like coffee", "--kind", "preference")
    cli("forget", gone)
    assert cli_json("count") == {"count": 2}
    assert cli_json("count", "--kind", "preference") == {"count": 1}
    assert cli_json("count", "--layer", "deleted") == {"count": 1}
    assert cli("count", "--layer", "core", "--layer", "deleted").stdout.strip() == "3"
    cli("count", "--kind", "gossip", code=4)
