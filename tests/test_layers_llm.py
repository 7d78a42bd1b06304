"""The LLM-written layer of a session's layered summaries (working/layers_llm.py), against the
loopback OpenAI-compatible double: each summary worded by the model with each sentence mapped to
its turns; a refused answer or a failed call keeps the extractive summary with the reason."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

import engramdb
from llm_double import Script, serve

EN = [("user", "Hi, how are you?"), ("assistant", "Fine, thanks!"),
      ("user", "We decided to move the launch to June 12."), ("assistant", "OK."),
      ("user", "The contract with Globex is worth 40000 dollars."), ("assistant", "Noted."),
      ("user", "Ravi will review the slides."), ("assistant", "Great.")]
ZH = [("user", "你好呀"), ("assistant", "你好！"),
      ("user", "我们决定把发布改到6月12日。"), ("assistant", "好的。"),
      ("user", "和华为的合同金额是40000元。"), ("assistant", "记下了。"),
      ("user", "小李负责审阅幻灯片。"), ("assistant", "好。")]
ANSWERS = {
    "en": [[("The launch moves to June 12.", [3])],
           [("The Globex contract is worth 40,000 dollars.", [5]),
            ("Ravi reviews the slides.", [7])],
           [("Launch on June 12; the Globex deal is worth 40000 dollars.", [3, 5])]],
    "zh": [[("发布改到6月12日。", [3])],
           [("华为合同金额40000元。", [5]), ("小李审阅幻灯片。", [7])],
           [("6月12日发布，华为合同40000元。", [3, 5])]],
}


def answer(sentences):  # type: ignore[no-untyped-def]
    return json.dumps({"sentences": [{"text": t, "turns": n} for t, n in sentences]},
                      ensure_ascii=False)


@pytest.fixture
def llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[Script]:
    yield from serve(monkeypatch)


@pytest.fixture
def mem(tmp_path, clock, llm):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "m.db", embedder="hashing", clock=clock, llm_url=llm.url,
                       llm_model="layers-model", llm_timeout=5) as m:
        yield m


def session(mem, name, pairs):  # type: ignore[no-untyped-def]
    s = mem.session(name)
    for role, text in pairs:
        s.add(role, text)
    return s


@pytest.mark.parametrize(("code", "talk"), [("en", EN), ("zh", ZH)], ids=["en", "zh"])
def test_each_summary_is_worded_by_the_llm_with_its_turns(mem, llm, code, talk):  # type: ignore[no-untyped-def]
    for reply in ANSWERS[code]:
        llm.say(answer(reply))
    s = session(mem, f"s-{code}", talk)
    found = s.layers(every=4, higher=2)
    assert [x.writer for x in [*found.summaries, *found.higher_summaries]] == ["llm"] * 3
    assert [[(x.text, list(x.sources)) for x in part.sentences]
            for part in [*found.summaries, *found.higher_summaries]] == [
        [(t, n) for t, n in reply] for reply in ANSWERS[code]]
    assert all(x.writer == "extractive" for x in found.keyframes)
    assert len(llm.requests) == 3 and llm.overrun == 0
    first, second, top = (r["body"] for r in llm.requests)
    assert first["model"] == "layers-model"
    assert first["response_format"] == {"type": "json_object"}
    assert f"[3] user: {talk[2][1]}" in first["messages"][1]["content"]
    assert f"[5] user: {talk[4][1]}" in second["messages"][1]["content"]
    assert "(turns 3)" in top["messages"][1]["content"]  # level 2 reads the level-1 sentences
    as_dict = found.to_dict()["summaries"][0]
    assert as_dict["writer"] == "llm" and as_dict["sentences"][0]["sources"] == [3]
    again = s.layers(every=4, higher=2)  # kept: the model is not asked again
    assert again.to_dict() == found.to_dict() and len(llm.requests) == 3


BAD = [
    ("not json at all", "not JSON"),
    (answer([("The launch moved.", [99])]), "turns it was not shown: [99]"),
    (answer([("The launch moves to June 14.", [3])]), "numbers its turns do not say"),
    (answer([("发布推迟到六月。", [3])]), "not in the language of its turns"),
    (answer([("A.", [1]), ("B.", [2]), ("C.", [3]), ("D.", [4])]), "1 to 3 sentences"),
    (json.dumps({"sentences": [{"text": "The launch moved.", "turns": []}]}), "names no turns"),
    (json.dumps({"summary": "The launch moved."}), "1 to 3 sentences"),
]


@pytest.mark.parametrize(("reply", "why"), BAD, ids=[
    "not-json", "unknown-turn", "invented-number", "language", "too-many", "no-turns",
    "wrong-shape"])
def test_a_bad_answer_keeps_the_extractive_summary_with_the_reason(mem, llm, tmp_path, reply,
                                                                    why):  # type: ignore[no-untyped-def]
    llm.say(reply)
    s = session(mem, "s-bad", EN[:4])
    (made,) = s.layers(every=4, higher=2).summaries
    assert made.writer == "extractive" and why in (made.note or "")
    assert made.text == "user: We decided to move the launch to June 12."
    assert made.to_dict()["note"] == made.note and len(llm.requests) == 1


def test_a_chinese_bad_answer_falls_back_too(mem, llm):  # type: ignore[no-untyped-def]
    llm.say(answer([("The release moves to June 12.", [3])]))  # English for Chinese turns
    s = session(mem, "s-zh-bad", ZH[:4])
    (made,) = s.layers(every=4, higher=2).summaries
    assert made.writer == "extractive" and "language" in (made.note or "")
    assert "6月12日" in made.text


def test_a_failed_call_is_tried_once_per_layers_and_falls_back(mem, llm):  # type: ignore[no-untyped-def]
    llm.fail(503)
    s = session(mem, "s-down", EN)
    found = s.layers(every=4, higher=2)
    parts = [*found.summaries, *found.higher_summaries]
    assert len(parts) == 3 and all(x.writer == "extractive" for x in parts)
    assert all("HTTP 503" in (x.note or "") for x in parts)
    assert len(llm.requests) == 1  # the endpoint is down: the others were not attempted
    assert "June 12" in found.summaries[0].text
    llm.say(answer(ANSWERS["en"][0]))  # back up: the next call asks again
    again = s.layers(every=4, higher=2)  # the script then runs dry: HTTP 500, no level 2 ask
    assert [x.writer for x in again.summaries] == ["llm", "extractive"]
    assert "HTTP 500" in (again.summaries[1].note or "") and len(llm.requests) == 3


def test_without_an_llm_nothing_is_asked(tmp_path, clock, llm):  # type: ignore[no-untyped-def]
    with engramdb.open(tmp_path / "plain.db", embedder="hashing", clock=clock) as plain:
        s = session(plain, "s-plain", EN)
        found = s.layers(every=4, higher=2)
    assert {x.writer for x in [*found.summaries, *found.higher_summaries]} == {"extractive"}
    assert all(x.note is None for x in found.summaries) and llm.requests == []
