"""Sleep merges paraphrased facts about one entity that hold the same value (issue 21,
dynamics/entity_merge.py): the write guard's slot_same_value rule applied to pairs that got in
around it (here: an import of memories written to two stores), in English and Chinese; other
values, other numbers and other subjects stay apart; the merge is reversible and both
histories say why."""

from __future__ import annotations

import io

import engramdb

BACKENDS = ("sqlite", "postgres")


def imported(mem, tmp_path, clock, *stores: list[str]) -> None:  # type: ignore[no-untyped-def]
    """Write each list to a store of its own (the guard sees one list at a time), then import
    them all into ``mem``'s alice/noah scope."""
    for n, contents in enumerate(stores):
        with engramdb.open(tmp_path / f"src{n}.db", embedder="hashing", clock=clock) as src:
            me = src.scope(user="alice", agent="noah")
            for text in contents:
                me.remember(text, kind="fact")
            out = io.StringIO()
            src.export(out, user="alice", agent="noah")
        clock.advance(hours=1)
        mem.import_(io.StringIO(out.getvalue()))


def core(me) -> set[str]:  # type: ignore[no-untyped-def]
    return {r.content for r in me.list()}


def test_paraphrases_with_one_value_merge_in_both_languages(mem, me, tmp_path, clock):  # type: ignore[no-untyped-def]
    imported(mem, tmp_path, clock,
             ["Wang Lei lives in Berlin", "Priya works at Acme", "王磊住在北京", "Port is 8080",
              "Anna lives in Oslo"],
             ["Wang Lei moved to Berlin", "Priya is employed at Acme", "王磊搬到了北京",
              "Port is 9090", "Anna lives in Rome", "Tom lives in Berlin"])
    assert len(core(me)) == 11
    report = me.sleep("consolidate", full=True)
    assert report.phase("consolidate").counts().get("merged") == 3
    assert core(me) == {"Wang Lei lives in Berlin", "Priya works at Acme", "王磊住在北京",
                        "Port is 8080", "Port is 9090", "Anna lives in Oslo",
                        "Anna lives in Rome", "Tom lives in Berlin"}
    keep = next(r for r in me.list() if r.content == "Wang Lei lives in Berlin")
    dropped = next(r for r in me.list(layer="archived") if r.content == "Wang Lei moved to Berlin")
    assert dropped.metadata["merged_into"] == keep.id and keep.metadata["merged"] == [dropped.id]
    assert "same slot value" in me.history(dropped.id)[-1].reason
    assert "wang lei/residence" in me.history(keep.id)[-1].reason

    me.restore(dropped.id)                                # reversible
    me.rollback(keep.id, 1)
    assert {"Wang Lei lives in Berlin", "Wang Lei moved to Berlin"} <= core(me)


def test_an_incremental_sleep_finds_the_pair_through_the_slot_token(mem, me, tmp_path, clock):  # type: ignore[no-untyped-def]
    imported(mem, tmp_path, clock, ["Ines works for Globex"])
    me.sleep(full=True)
    imported(mem, tmp_path, clock, ["Ines works at Globex", "Ines is employed at Initech"])
    me.sleep()                                            # incremental: the new ones only
    assert core(me) == {"Ines works for Globex", "Ines is employed at Initech"}
