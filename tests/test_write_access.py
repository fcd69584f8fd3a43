"""What a write re-checks, and what it costs in statements (real embedded PostgreSQL): a
save's writing transaction, and a forget's, opens the space writable only if the key may still
write there now (migration 0016), whatever changed since the key check; a save's first look
(remote models only) opens on the space from the key check's grants."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from typing import Any

import pytest

from memory_mcp.errors import AccessDeniedError, NotFoundError
from memory_mcp.services import admin, memories
from memory_mcp.services.keys import authenticate_header
from memory_mcp.services.runtime import Runtime

from conftest import World, counting_embeds

pytestmark = pytest.mark.anyio


def _count_model_calls(runtime: Runtime, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The batches the embedding model is asked for from now on (cache hits never reach it)."""
    calls: list[list[str]] = []
    real = runtime.embedder.embed

    def counting(texts: list[str]) -> Any:
        calls.append(list(texts))
        return real(texts)

    monkeypatch.setattr(runtime.embedder, "embed", counting)
    return calls


async def test_an_identical_save_is_found_by_the_writes_own_candidates(
        runtime: Runtime, world: World, statements: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the local model there is no look before embedding: the writing transaction's
    candidates meet the identical text and answer "unchanged" (scope with the save lock, the
    candidates, the row), writing nothing. The same text again within the process is not
    embedded again (``embed_one``'s cache); another spelling of it is."""
    space = await world.space("look")
    m = await world.member(grants={space: "readwrite"})
    text = "The release train leaves every Tuesday."
    first = await memories.save(runtime, m.principal, text, None, space)
    model_calls = _count_model_calls(runtime, monkeypatch)
    for again_text, embeds in ((text, 0), ("  the release train leaves EVERY tuesday. ", 1)):
        statements.clear()
        model_calls.clear()
        again = await memories.save(runtime, m.principal, again_text, None, space)
        assert again["action"] == "unchanged" and again["memory"]["id"] == first["memory"]["id"]
        assert len(statements) == 3, statements
        assert "memory_mcp_still_writable" in statements[0] and \
            "pg_advisory_xact_lock_shared" in statements[0]
        assert "content_hash" in statements[2] and "INSERT" not in " ".join(statements)
        assert len(model_calls) == embeds, model_calls


async def test_with_a_remote_model_a_save_first_looks_for_the_identical_text(
        runtime: Runtime, world: World, statements: list[str]) -> None:
    """A remote model costs a call per text: the identical-text look comes first (scope: the
    grant still held, then the lookup), and an identical save ends there, embedding nothing."""
    remote = replace(runtime, settings=runtime.settings.model_copy(
        update={"embedding_provider": "openai"}), batcher=None, _literals=OrderedDict())
    space = await world.space("look-remote")
    m = await world.member(grants={space: "readwrite"})
    text = "The release train leaves every Wednesday."
    with counting_embeds(remote) as embedded:
        await memories.save(remote, m.principal, text, None, space)
        assert embedded == [text]
        statements.clear()
        again = await memories.save(remote, m.principal, text, None, space)
    assert again["action"] == "unchanged"
    assert len(statements) == 2, statements
    assert statements[0].startswith("SELECT set_config('role',") and \
        "memory_mcp_still_granted" in statements[0]
    assert "content_hash" in statements[1]
    assert embedded == [text], "the identical save embedded nothing"


@pytest.mark.parametrize(("who", "refused", "words"), [
    ("grant read", AccessDeniedError, "read-only"), ("a Reader", AccessDeniedError, "read-only"),
    ("no grant", NotFoundError, "was not found")])
@pytest.mark.parametrize("action", ["save", "forget by content", "forget by id"])
async def test_a_writer_who_may_not_write_costs_no_statement_and_no_embedding(
        runtime: Runtime, world: World, statements: list[str], embedded: list[str], who: str,
        refused: type[Exception], words: str, action: str) -> None:
    space, other = await world.space("ro"), await world.space("ro-other")
    owner = await world.member(grants={space: "readwrite"})
    saved = await memories.save(runtime, owner.principal, "The vault code is 4711.", None, space)
    if who == "grant read":
        m = await world.member(grants={space: "read"})
    elif who == "a Reader":
        m = await world.member("reader", grants={space: "readwrite"})
    else:
        m = await world.member(grants={other: "readwrite"})
    statements.clear()
    embedded.clear()
    with pytest.raises(refused, match=words):
        if action == "save":
            await memories.save(runtime, m.principal, "A fact nobody may write here.", None,
                                space)
        else:
            await memories.forget(
                runtime, m.principal, "the vault code" if action == "forget by content" else None,
                saved["memory"]["id"] if action == "forget by id" else None, space)
    assert statements == [] and embedded == []


async def test_a_forget_after_the_key_check_obeys_a_grant_revoked_meanwhile(
        runtime: Runtime, world: World) -> None:
    """The forget's first transaction opens on the key check's space only if the key still
    holds it: a revoked grant reads "not found", before any embedding."""
    space = await world.space("lostf")
    m = await world.member(grants={space: "readwrite"})
    saved = await memories.save(runtime, m.principal, "The vault code is 4711.", None, space)
    principal = await authenticate_header(runtime, f"Bearer {m.key}")
    await admin.revoke_grant(runtime, m.key_id, space)
    for content, memory_id in (("The vault code is 4711.", None), ("vault code", None),
                               (None, saved["memory"]["id"])):
        with pytest.raises(NotFoundError, match=f'Space "{space}" was not found'):
            await memories.forget(runtime, principal, content, memory_id, space)


@pytest.mark.parametrize("change", ["grant revoked", "grant made read-only", "key revoked",
                                    "user deactivated"])
async def test_a_save_after_the_key_check_obeys_a_grant_changed_meanwhile(
        runtime: Runtime, world: World, change: str) -> None:
    """The writing transaction reads the grants again (the space resolved again where it
    writes, with the access as it is now): nothing is written, and an identical text is refused
    the same way (with the local model it is recognised only inside that transaction)."""
    space = await world.space("lostw")
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The vault code is 4711.", None, space)
    principal = await authenticate_header(runtime, f"Bearer {m.key}")
    if change == "grant revoked":
        await admin.revoke_grant(runtime, m.key_id, space)
    elif change == "grant made read-only":
        await admin.set_grant(runtime, m.key_id, space, "read")
    elif change == "key revoked":
        await admin.revoke_key(runtime, m.key_id)
    else:
        await admin.update_user(runtime, m.user["email"], active=False)
    refused, words = ((AccessDeniedError, "read-only") if change == "grant made read-only"
                      else (NotFoundError, f'Space "{space}" was not found'))
    for text in ("The vault code is 4711.", "The vault code is now 1234."):  # same, new
        with pytest.raises(refused, match=words):
            await memories.save(runtime, principal, text, None, space)
    async with runtime.transaction(system=True) as conn:
        cur = await conn.execute("SELECT m.content FROM memories m JOIN spaces s"
                                 " ON s.id = m.space_id WHERE s.key = %s", (space,))
        assert [r["content"] for r in await cur.fetchall()] == ["The vault code is 4711."]


async def test_a_new_save_is_four_statements(runtime: Runtime, world: World,
                                             statements: list[str]) -> None:
    """Scope (the key may still write there, migration 0016; the HNSW settings; the save lock,
    shared) + candidates + write + post-write check. No look before embedding with the local
    model, and no second read of the grants."""
    space = await world.space("four")
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The release train leaves every Tuesday.", None,
                        space)
    statements.clear()
    saved = await memories.save(runtime, m.principal, "Lunch is at noon in the canteen.", None,
                                space)
    assert saved["action"] == "saved"
    assert len(statements) == 4, statements
    assert "memory_mcp_still_writable" in statements[0]
    assert statements[0].count("set_config(%s, %s, true)") == 3  # the HNSW settings
    assert "pg_advisory_xact_lock_shared" in statements[0]
    assert "grants" not in " ".join(statements[1:]), "no second read of the grants"


@pytest.mark.parametrize(("change", "refused"), [
    ("grant revoked", NotFoundError), ("key revoked", NotFoundError),
    ("user deactivated", NotFoundError), ("grant made read-only", AccessDeniedError),
    ("user made a reader", AccessDeniedError)])
async def test_a_save_whose_access_changes_while_it_embeds_writes_nothing(
        runtime: Runtime, world: World, change: str, refused: type[Exception]) -> None:
    """The writing transaction's first statement checks the key may still write there, with
    the role and grant as they are now, not as the key check saw them."""
    space = await world.space("embedw")
    m = await world.member(grants={space: "readwrite"})
    principal = await authenticate_header(runtime, f"Bearer {m.key}")
    real = runtime.embed_one

    async def changing(text: str, scope: Any = None) -> str:
        if change == "grant revoked":
            await admin.revoke_grant(runtime, m.key_id, space)
        elif change == "key revoked":
            await admin.revoke_key(runtime, m.key_id)
        elif change == "user deactivated":
            await admin.update_user(runtime, m.user["email"], active=False)
        elif change == "grant made read-only":
            await admin.set_grant(runtime, m.key_id, space, "read")
        else:
            await admin.update_user(runtime, m.user["email"], role="reader")
        return await real(text, scope)

    runtime.embed_one = changing  # type: ignore[method-assign]
    try:
        with pytest.raises(refused) as caught:
            await memories.save(runtime, principal, "The vault code is 4711.", None, space)
    finally:
        runtime.embed_one = real  # type: ignore[method-assign]
    words = f'Space "{space}" was not found' if refused is NotFoundError else "read-only"
    assert words in str(caught.value)
    async with runtime.transaction(system=True) as conn:
        cur = await conn.execute("SELECT count(*) AS n FROM memories m JOIN spaces s"
                                 " ON s.id = m.space_id WHERE s.key = %s", (space,))
        assert await cur.fetchone() == {"n": 0}


@pytest.mark.parametrize(("change", "refused"), [
    ("key revoked", NotFoundError), ("user made a reader", AccessDeniedError)])
async def test_a_forget_whose_access_changes_while_it_looks_forgets_nothing(
        runtime: Runtime, world: World, change: str, refused: type[Exception]) -> None:
    space = await world.space("embedf")
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The staging database runs PostgreSQL 16.", None,
                        space)
    principal = await authenticate_header(runtime, f"Bearer {m.key}")
    real = runtime.query_vector

    async def changing(text: str, scope: Any = None) -> str:  # the look for the memory the text means
        if change == "key revoked":
            await admin.revoke_key(runtime, m.key_id)
        else:
            await admin.update_user(runtime, m.user["email"], role="reader")
        return await real(text, scope)

    runtime.query_vector = changing  # type: ignore[method-assign]
    try:
        with pytest.raises(refused):
            await memories.forget(runtime, principal, "staging database runs PostgreSQL 16",
                                  None, space)
    finally:
        runtime.query_vector = real  # type: ignore[method-assign]
    async with runtime.transaction(system=True) as conn:
        cur = await conn.execute("SELECT bool_and(NOT m.is_forgotten) AS kept FROM memories m"
                                 " JOIN spaces s ON s.id = m.space_id WHERE s.key = %s", (space,))
        assert await cur.fetchone() == {"kept": True}


@pytest.mark.parametrize("change", ["key revoked", "user deactivated", "grant revoked"])
async def test_reads_after_the_key_check_obey_access_lost_meanwhile(
        runtime: Runtime, world: World, change: str) -> None:
    """The reads that resolve their space from the grants as they are now (listings, the
    profile, select-space) see none for a key revoked or a user deactivated since the key
    check, and a role lowered since then makes every space read-only."""
    from memory_mcp.services import documents, spaces
    space = await world.space("reads")
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The VPN gateway is in Frankfurt.", None, space)
    principal = await authenticate_header(runtime, f"Bearer {m.key}")
    if change == "key revoked":
        await admin.revoke_key(runtime, m.key_id)
    elif change == "user deactivated":
        await admin.update_user(runtime, m.user["email"], active=False)
    else:
        await admin.revoke_grant(runtime, m.key_id, space)
    for read in (memories.list_page(runtime, principal, 1, 10, space),
                 documents.list_page(runtime, principal, 1, 10, space),
                 spaces.profile(runtime, principal, space)):
        with pytest.raises(NotFoundError):
            await read
    listed = await spaces.list_spaces(runtime, principal)
    assert listed["spaces"] == []


async def test_a_role_lowered_after_the_key_check_reads_as_reader(
        runtime: Runtime, world: World) -> None:
    from memory_mcp.services import spaces
    space = await world.space("role")
    m = await world.member(grants={space: "readwrite"})
    principal = await authenticate_header(runtime, f"Bearer {m.key}")
    await admin.update_user(runtime, m.user["email"], role="reader")
    listed = await spaces.list_spaces(runtime, principal)
    assert [(s["key"], s["access"], s["grantedAccess"]) for s in listed["spaces"]] == [
        (space, "Read", "ReadWrite")]


async def test_keys_list_shows_the_space_a_request_would_use(
        runtime: Runtime, world: World) -> None:
    """``keys list``'s active space is the one a request without containerTag uses: the
    selected space while it is granted, the oldest grant once that grant is revoked (it
    showed the revoked space, which the key could no longer touch)."""
    from memory_mcp.services import spaces
    first, second = await world.space("first"), await world.space("second")
    m = await world.member(grants={first: "readwrite", second: "readwrite"})

    def shown() -> Any:
        return next(k["active_space"] for k in listed if k["id"] == m.key_id)

    listed = await admin.list_keys(runtime)
    assert shown() == first  # nothing selected: the oldest grant
    await spaces.select_space(runtime, m.principal, second)
    listed = await admin.list_keys(runtime)
    assert shown() == second
    await admin.revoke_grant(runtime, m.key_id, second)
    listed = await admin.list_keys(runtime)
    assert shown() == first
    await admin.update_user(runtime, m.user["email"], active=False)  # its requests: no space
    listed = await admin.list_keys(runtime)
    assert shown() is None
    await admin.update_user(runtime, m.user["email"], active=True)
    await admin.revoke_grant(runtime, m.key_id, first)
    listed = await admin.list_keys(runtime)
    assert shown() is None


class _UnreachableGraph:
    """The runtime's vector form, but no row of any bucket's HNSW graph matches its predicate:
    what a save meets when the graph cannot reach the space's rows (seen in a full test run)."""

    def __init__(self, form: Any) -> None:
        self._form = form
        self.width = form.width
        self.distance = form.distance
        self.query_literal = form.query_literal

    @property
    def predicate(self) -> str:
        return f"{self._form.predicate} AND m.embedding_width < 0"


async def test_a_small_space_finds_its_version_candidates_without_the_graph(
        runtime: Runtime, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A small space's rows are read exactly (``ann.EXACT_SPACE``), so a graph that
    cannot reach them does not turn an update into a second current memory; above the bound
    only the graph is asked (and then finds nothing here)."""
    from memory_mcp.db import ann
    from memory_mcp.db.search import VectorForm

    space = await world.space("exact")
    m = await world.member(grants={space: "readwrite"})
    old = await memories.save(runtime, m.principal, "The cache TTL is 300 seconds.", None, space)
    form = runtime.vector_form
    monkeypatch.setattr(VectorForm, "for_dimensions",
                        staticmethod(lambda _dims: _UnreachableGraph(form)))
    new = await memories.save(runtime, m.principal, "The cache TTL is 600 seconds.", None, space)
    assert new["action"] == "versioned" and new["supersedes"]["id"] == old["memory"]["id"]

    monkeypatch.setattr(ann, "EXACT_SPACE", 0)
    third = await memories.save(runtime, m.principal, "The cache TTL is 900 seconds.", None,
                                space)
    assert third["action"] == "saved", third


async def test_a_text_embedded_for_one_space_is_never_served_from_cache_to_another(
        runtime: Runtime, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A cached text answers in half the time, so a cache shared across spaces told any key
    whether a text had just been saved or searched in a space it cannot read. The cache is
    per space and caller: only the same caller in the same space gets a hit."""
    secret, public = await world.space("secret"), await world.space("public")
    owner = await world.member(grants={secret: "readwrite"})
    prober = await world.member(grants={public: "readwrite"})
    text = "The merger with Initech closes on 14 March for 81 million."
    await memories.save(runtime, owner.principal, text, None, secret)
    model_calls = _count_model_calls(runtime, monkeypatch)
    await memories.search(runtime, prober.principal, query=text, keyword=None, category=None,
                          include_profile=False, container_tag=public, limit=None)
    assert model_calls == [[text]]  # embedded afresh: nothing learned from the timing
    await memories.search(runtime, owner.principal, query=text, keyword=None, category=None,
                          include_profile=False, container_tag=secret, limit=None)
    assert model_calls == [[text]]  # the owner's own text in its own space: a hit


async def test_a_small_space_is_searched_without_the_graph(
        runtime: Runtime, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Search has the same exact look for a small space (``ann.EXACT_SPACE``): a
    graph that cannot reach the space's rows no longer hides them (a question sharing no word
    with the memory, so full text cannot find it either)."""
    from memory_mcp.db import ann
    from memory_mcp.db.search import VectorForm

    space = await world.space("exact")
    m = await world.member(grants={space: "readwrite"})
    saved = await memories.save(runtime, m.principal, "The cache TTL is 300 seconds.", None,
                                space)
    form = runtime.vector_form
    monkeypatch.setattr(VectorForm, "for_dimensions",
                        staticmethod(lambda _dims: _UnreachableGraph(form)))

    async def found() -> list[str]:
        answer = await memories.search(
            runtime, m.principal, query="How long are entries kept before they expire?",
            keyword=None, category=None, include_profile=False, container_tag=space,
            limit=None)
        return [hit["id"] for hit in answer["results"]]

    assert saved["memory"]["id"] in await found()
    monkeypatch.setattr(ann, "EXACT_SPACE", 0)
    assert saved["memory"]["id"] not in await found()


async def test_a_long_forget_embeds_once_and_weighs_no_more_words_than_a_search(
        runtime: Runtime, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A forget of 100,000 characters embedded its text twice (two cache scopes) and made
    PostgreSQL weigh every one of its stems against every candidate (1-2 s): its full-text
    side now reads what a search may ask (``max_query_chars``), and the second look hits the
    cache. The cache keeps a digest of each text, not the text."""
    from memory_mcp.services import forgetting, recall

    space = await world.space("long-forget")
    m = await world.member(grants={space: "readwrite"})
    await memories.save(runtime, m.principal, "The VPN certificate expires after a year.", None,
                        space)
    asked: list[int] = []
    ranked = recall.ranked

    async def watched(*args: Any, **kwargs: Any) -> Any:
        asked.append(len(kwargs["query"]))
        return await ranked(*args, **kwargs)

    monkeypatch.setattr(recall, "ranked", watched)
    model_calls = _count_model_calls(runtime, monkeypatch)
    text = " ".join(f"Note {i}: service{i} rotates its certificate yearly." for i in range(400))
    answer = await forgetting.forget(runtime, m.principal, text, None, space)
    assert answer["action"] == "nothing_matched", answer
    assert len(text) > runtime.settings.max_query_chars
    assert asked == [runtime.settings.max_query_chars]
    assert model_calls == [[text]]
    assert all(len(key) == 16 for _, key in runtime._literals)
