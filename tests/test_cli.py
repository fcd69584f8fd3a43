"""The admin CLI (``memory-mcp``), driven in-process through ``cli.run`` on a fresh database.

Each test gets an empty migrated database, so counts are exact. Output is parsed from ``--json``
where a script would; the human format is checked where an operator reads it (the key shown once).
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import sys
import uuid
from typing import Any

import psycopg
import pytest
from psycopg.rows import dict_row

from memory_mcp.cli import run
from memory_mcp.errors import AuthenticationError
from memory_mcp.models import Principal
from memory_mcp.services.keys import authenticate

from conftest import settings_for


class Cli:
    """``memory-mcp`` against one database, with captured output."""

    def __init__(self, url: str, capsys: pytest.CaptureFixture[str]) -> None:
        self.url = url
        self.settings = settings_for(url)
        self.capsys = capsys

    def __call__(self, *argv: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = run(list(argv), settings=self.settings)
        out, err = self.capsys.readouterr()
        return code, out, err

    def json(self, *argv: str) -> Any:
        code, out, err = self("--json", *argv)
        assert code == 0, err
        assert err == ""
        return json.loads(out)

    def fails(self, *argv: str) -> str:
        """Exit code 1, nothing on stdout, one ``error: ...`` message on stderr."""
        code, out, err = self(*argv)
        assert code == 1, (out, err)
        assert out == ""
        assert err.startswith("error: ") and err.endswith("\n")
        return err

    def usage_error(self, *argv: str) -> str:
        """argparse rejects it before anything runs: SystemExit(2)."""
        self.capsys.readouterr()
        with pytest.raises(SystemExit) as exc:
            run(list(argv), settings=self.settings)
        assert exc.value.code == 2
        return self.capsys.readouterr().err

    def count(self, table: str) -> int:
        assert table in {"users", "spaces", "api_keys", "grants"}
        with psycopg.connect(self.url) as conn:
            row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
        assert row is not None
        return int(row[0])


@pytest.fixture
def cli(fresh_database_url: str, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(fresh_database_url, capsys)


def principal(url: str, key: str) -> Principal | None:
    """What ``authenticate`` makes of the key; None when it is refused."""

    async def go() -> Principal | None:
        async with await psycopg.AsyncConnection.connect(url, row_factory=dict_row) as conn:
            try:
                return await authenticate(conn, key)
            except AuthenticationError as exc:
                assert str(exc) == "Invalid or missing API key."
                return None

    return asyncio.run(go())


def new_user(cli: Cli, email: str = "ada@example.test", role: str = "writer") -> dict[str, Any]:
    user: dict[str, Any] = cli.json("users", "create", "--email", email, "--name", "Ada L", "--role",
                                    role)
    return user


def new_key(cli: Cli, user: str = "ada@example.test", label: str = "laptop") -> dict[str, Any]:
    key: dict[str, Any] = cli.json("keys", "create", "--user", user, "--label", label)
    return key


# --------------------------------------------------------------------------- users


def test_users_create_list_deactivate_reactivate_set_role(cli: Cli) -> None:
    assert cli("users", "list") == (0, "(none)\n", "")
    assert cli.json("users", "list") == []

    ada = new_user(cli)
    assert uuid.UUID(ada["id"])
    assert ada["email"] == "ada@example.test" and ada["display_name"] == "Ada L"
    assert ada["role"] == "writer" and ada["active"] is True
    code, out, _ = cli("users", "create", "--email", " bob@example.test ", "--name", " Bob ",
                       "--role", "reader")
    assert code == 0
    assert "email=bob@example.test" in out and "display_name=Bob " in out and "role=reader" in out

    users = cli.json("users", "list")
    assert [u["email"] for u in users] == ["ada@example.test", "bob@example.test"]
    assert [u["active_keys"] for u in users] == [0, 0]

    off = cli.json("users", "deactivate", "ada@example.test")
    assert off["id"] == ada["id"] and off["active"] is False
    assert {u["email"]: u["active"] for u in cli.json("users", "list")} == {
        "ada@example.test": False, "bob@example.test": True}

    on = cli.json("users", "reactivate", ada["id"])  # by id this time
    assert on["active"] is True

    demoted = cli.json("users", "set-role", "ADA@example.test", "--role", "reader")  # email: any case
    assert demoted["id"] == ada["id"] and demoted["role"] == "reader" and demoted["active"] is True
    promoted = cli.json("users", "set-role", ada["id"], "--role", "writer")
    assert promoted["role"] == "writer"
    assert cli.count("users") == 2


def test_users_bad_input_is_refused_and_writes_nothing(cli: Cli) -> None:
    new_user(cli)
    before = cli.json("users", "list")

    err = cli.fails("users", "create", "--email", "ada@example.test", "--name", "Again", "--role",
                    "writer")
    assert "already exists" in err and "ada@example.test" in err
    err = cli.fails("users", "create", "--email", "ADA@Example.TEST", "--name", "Again", "--role",
                    "reader")
    assert "already exists" in err
    assert "Not an email address" in cli.fails("users", "create", "--email", "not-an-email",
                                               "--name", "X", "--role", "writer")
    assert "name must not be empty" in cli.fails("users", "create", "--email", "x@example.test",
                                                 "--name", "   ", "--role", "writer")
    assert "No user with id or email" in cli.fails("users", "deactivate", "nobody@example.test")
    assert "No user with id or email" in cli.fails("users", "set-role", str(uuid.uuid4()),
                                                   "--role", "reader")

    err = cli.usage_error("users", "set-role", "ada@example.test", "--role", "admin")
    assert "invalid choice: 'admin'" in err
    err = cli.usage_error("users", "create", "--email", "y@example.test", "--name", "Y",
                          "--role", "owner")
    assert "invalid choice: 'owner'" in err

    assert cli.json("users", "list") == before


# --------------------------------------------------------------------------- spaces


def test_spaces_create_and_list(cli: Cli) -> None:
    assert cli.json("spaces", "list") == []
    eng = cli.json("spaces", "create", "--key", "eng-launch", "--name", "Engineering launch",
                   "--description", "  Q4 launch  ")
    assert eng["key"] == "eng-launch" and eng["name"] == "Engineering launch"
    assert eng["description"] == "Q4 launch" and eng["last_activity_at"] is None
    unnamed = cli.json("spaces", "create", "--key", "r.and_d-2", "--name", "")
    assert unnamed["name"] == "r.and_d-2"  # the key doubles as the name

    spaces = cli.json("spaces", "list")
    assert [s["key"] for s in spaces] == ["eng-launch", "r.and_d-2"]
    assert all(s["memory_count"] == 0 and s["document_count"] == 0 for s in spaces)


def test_spaces_bad_input_is_refused_and_writes_nothing(cli: Cli) -> None:
    cli.json("spaces", "create", "--key", "eng", "--name", "Eng")
    for bad in ("Bad Key!", "UPPER", "-leading-dash", "with space", "x" * 64, ""):
        err = cli.fails("spaces", "create", f"--key={bad}", "--name", "Whatever")
        assert "space key must be 1-63 lowercase letters" in err, bad
    assert "already exists" in cli.fails("spaces", "create", "--key", "eng", "--name", "Eng 2")
    assert [s["key"] for s in cli.json("spaces", "list")] == ["eng"]
    assert cli.count("spaces") == 1


def test_spaces_human_output_shows_the_space_key(cli: Cli) -> None:
    code, out, _ = cli("spaces", "create", "--key", "eng", "--name", "Engineering")
    assert code == 0 and "key=eng" in out
    code, out, _ = cli("spaces", "list")
    assert code == 0 and "key=eng" in out


def test_json_flag_is_accepted_after_the_subcommand(cli: Cli) -> None:
    cli("spaces", "create", "--key", "eng", "--name", "Engineering")
    code, out, _ = cli("spaces", "list", "--json")
    assert code == 0 and json.loads(out)[0]["key"] == "eng"
    code, out, _ = cli("spaces", "--json", "list")
    assert code == 0 and json.loads(out)[0]["key"] == "eng"


# --------------------------------------------------------------------------- keys


def test_keys_create_prints_the_key_once_and_list_never_shows_it(cli: Cli) -> None:
    ada = new_user(cli)
    code, out, err = cli("keys", "create", "--user", "ada@example.test", "--label", "laptop")
    assert code == 0 and err == ""
    keys_printed = [w for w in out.split() if w.startswith("mm_")]
    assert len(keys_printed) == 1
    key = keys_printed[0]
    prefix, secret = key.split("_", 2)[1:]
    assert out.count(secret) == 1
    assert "API key (shown once, store it now):" in out
    assert principal(cli.url, key) is not None

    created = new_key(cli, ada["id"], "ci")  # by user id, JSON: the key is a field
    assert created["key"].startswith("mm_") and created["email"] == "ada@example.test"
    assert created["user_id"] == ada["id"] and created["label"] == "ci"
    assert "key_hash" not in created

    listed_json = cli.json("keys", "list")
    code, listed_text, _ = cli("keys", "list")
    assert code == 0
    assert [k["label"] for k in listed_json] == ["laptop", "ci"]
    assert listed_json[0]["prefix"] == f"mm_{prefix}_…"
    for k in listed_json:
        assert set(k) >= {"id", "user_id", "email", "label", "prefix", "created_at", "revoked_at",
                          "grants", "last_used_at"}
        assert "key_hash" not in k and "key" not in k
    for shown in (json.dumps(listed_json), listed_text):
        for full in (key, created["key"]):
            assert full not in shown
            assert full.split("_", 2)[2] not in shown
        assert "key_hash" not in shown
    assert cli.json("keys", "list", "--user", "ada@example.test") == listed_json

    # only the hash is stored
    with psycopg.connect(cli.url) as conn:
        rows = conn.execute("SELECT prefix, key_hash FROM api_keys ORDER BY created_at").fetchall()
    assert rows[0] == (prefix, hashlib.sha256(key.encode()).digest())
    assert all(secret not in str(value) for row in rows for value in row)


def test_keys_create_for_unknown_user_or_without_label_writes_nothing(cli: Cli) -> None:
    new_user(cli)
    err = cli.fails("keys", "create", "--user", "ghost@example.test", "--label", "laptop")
    assert "No user with id or email 'ghost@example.test'" in err
    assert "mm_" not in err
    assert "label must not be empty" in cli.fails("keys", "create", "--user", "ada@example.test",
                                                  "--label", "  ")
    assert "No user" in cli.fails("keys", "list", "--user", "ghost@example.test")
    assert cli.count("api_keys") == 0
    assert cli.json("keys", "list") == []


def test_keys_revoke(cli: Cli) -> None:
    new_user(cli)
    kept, revoked = new_key(cli, label="kept"), new_key(cli, label="gone")
    assert principal(cli.url, revoked["key"]) is not None

    result = cli.json("keys", "revoke", revoked["id"])
    assert result["id"] == revoked["id"] and result["revoked_at"] is not None
    assert result["prefix"] == revoked["prefix"] == f"mm_{revoked['key'][3:13]}_…"
    assert revoked["key"] not in json.dumps(result)
    assert principal(cli.url, revoked["key"]) is None
    assert principal(cli.url, kept["key"]) is not None

    again = cli.json("keys", "revoke", revoked["id"])  # idempotent: the first time stands
    assert again["revoked_at"] == result["revoked_at"]
    states = {k["label"]: k["revoked_at"] for k in cli.json("keys", "list")}
    assert states["kept"] is None and states["gone"] == result["revoked_at"]
    assert [u["active_keys"] for u in cli.json("users", "list")] == [1]

    assert "No key with id" in cli.fails("keys", "revoke", str(uuid.uuid4()))
    assert "Not a key id" in cli.fails("keys", "revoke", "not-a-uuid")


# --------------------------------------------------------------------------- grants


def test_grants_set_and_revoke(cli: Cli) -> None:
    new_user(cli)
    key = new_key(cli)
    cli.json("spaces", "create", "--key", "eng", "--name", "Eng")
    cli.json("spaces", "create", "--key", "fin", "--name", "Finance")

    grant = cli.json("grants", "set", "--key", key["id"], "--space", "eng", "--access", "readwrite")
    assert grant["key_id"] == key["id"] and grant["space"] == "eng" and grant["access"] == "readwrite"
    cli.json("grants", "set", "--key", key["id"], "--space", "fin", "--access", "read")
    (listed,) = cli.json("keys", "list")
    assert listed["grants"] == [{"space": "eng", "access": "readwrite"},
                                {"space": "fin", "access": "read"}]

    lowered = cli.json("grants", "set", "--key", key["id"], "--space", "eng", "--access", "read")
    assert lowered["access"] == "read"  # upsert, not a second grant
    assert cli.count("grants") == 2

    removed = cli.json("grants", "revoke", "--key", key["id"], "--space", "fin")
    assert removed == {"key_id": key["id"], "space": "fin", "revoked": True}
    (listed,) = cli.json("keys", "list")
    assert listed["grants"] == [{"space": "eng", "access": "read"}]
    assert "holds no grant on space 'fin'" in cli.fails("grants", "revoke", "--key", key["id"],
                                                        "--space", "fin")


def test_grants_bad_input_is_refused_and_writes_nothing(cli: Cli) -> None:
    new_user(cli)
    key = new_key(cli)
    cli.json("spaces", "create", "--key", "eng", "--name", "Eng")

    err = cli.fails("grants", "set", "--key", key["id"], "--space", "nope", "--access", "read")
    assert "No space with key 'nope'" in err
    err = cli.fails("grants", "set", "--key", str(uuid.uuid4()), "--space", "eng", "--access",
                    "read")
    assert "No key with id" in err
    err = cli.fails("grants", "set", "--key", "laptop", "--space", "eng", "--access", "read")
    assert "Not a key id" in err
    assert "No space" in cli.fails("grants", "revoke", "--key", key["id"], "--space", "nope")
    err = cli.usage_error("grants", "set", "--key", key["id"], "--space", "eng", "--access", "write")
    assert "invalid choice: 'write'" in err
    assert cli.count("grants") == 0


# --------------------------------------------------------------------------- auth + migrate


def test_deactivated_users_keys_stop_authenticating_until_reactivated(cli: Cli) -> None:
    ada = new_user(cli)
    laptop, ci = new_key(cli, label="laptop"), new_key(cli, label="ci")
    cli.json("spaces", "create", "--key", "eng", "--name", "Eng")
    cli.json("grants", "set", "--key", laptop["id"], "--space", "eng", "--access", "readwrite")

    who = principal(cli.url, laptop["key"])
    assert who is not None
    assert str(who.user_id) == ada["id"] and str(who.key_id) == laptop["id"]
    assert who.role == "writer" and who.key_label == "laptop"

    cli.json("users", "deactivate", "ada@example.test")
    assert principal(cli.url, laptop["key"]) is None
    assert principal(cli.url, ci["key"]) is None  # every key of the user, at once

    cli.json("users", "reactivate", "ada@example.test")
    assert principal(cli.url, laptop["key"]) is not None
    assert principal(cli.url, ci["key"]) is not None

    cli.json("users", "set-role", "ada@example.test", "--role", "reader")
    who = principal(cli.url, laptop["key"])
    assert who is not None and who.role == "reader"  # the role is read fresh on every request


def test_migrate_reports_nothing_to_apply_on_an_up_to_date_database(cli: Cli) -> None:
    assert cli("migrate") == (0, "applied=nothing (up to date)\n", "")
    assert cli.json("migrate") == {"applied": []}


def test_reembed_requires_confirmation(cli: Cli) -> None:
    assert "pass --yes to confirm" in cli.fails("reembed")


# --------------------------------------------------------------------------- export / import


def save_memories(cli: Cli, key: str, space: str, texts: list[str]) -> None:
    """Memories written the way an MCP caller writes them (services.memories.save)."""
    from memory_mcp.db.pool import open_pool
    from memory_mcp.embeddings import build_embedder
    from memory_mcp.services import memories
    from memory_mcp.services.runtime import Runtime

    who = principal(cli.url, key)
    assert who is not None

    async def go() -> None:
        pool = await open_pool(cli.settings, cli.url)
        try:
            rt = Runtime(settings=cli.settings, pool=pool, embedder=build_embedder(cli.settings))
            for text in texts:
                await memories.save(rt, who, text, None, space)
        finally:
            await pool.close()

    asyncio.run(go())


def test_export_then_import_through_the_cli(cli: Cli, tmp_path: Any) -> None:
    new_user(cli)
    key = new_key(cli)
    cli.json("spaces", "create", "--key", "eng", "--name", "Eng")
    cli.json("grants", "set", "--key", key["id"], "--space", "eng", "--access", "readwrite")
    save_memories(cli, key["key"], "eng", ["Deploys freeze on Fridays.", "CI runs on Graviton.",
                                           "The wiki moved to Notion."])

    path = tmp_path / "eng.jsonl"
    code, out, err = cli("export", "--space", "eng", "--output", str(path))
    assert code == 0 and err == "" and "memories=3" in out and f"output={path}" in out
    assert path.exists() and not (tmp_path / "eng.jsonl.part").exists()

    code, out, err = cli("--json", "export", "--space", "eng")  # stdout is the file itself
    assert code == 0 and json.loads(out.splitlines()[0])["space"]["key"] == "eng"
    assert json.loads(err)["memories"] == 3 and json.loads(out.splitlines()[-1])["type"] == "end"

    first = cli.json("import", str(path), "--space", "eng-copy")
    assert first["created_space"] is True and first["memories"] == 3
    assert first["authors_mapped"] == ["ada@example.test"]
    again = cli.json("import", str(path), "--space", "eng-copy")
    assert again["memories"] == 0 and again["skipped_memories"] == 3
    (copy,) = [s for s in cli.json("spaces", "list") if s["key"] == "eng-copy"]
    assert copy["name"] == "Eng"

    human = cli("import", str(path), "--space", "eng-copy")
    assert human[0] == 0 and "authors_mapped: ada@example.test" in human[1]

    # from a pipe: `memory-mcp export --space eng | memory-mcp import - --space eng-piped`
    with path.open("rb") as piped, pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.TextIOWrapper(piped))
        from_stdin = cli.json("import", "-", "--space", "eng-piped")
    assert from_stdin["created_space"] is True and from_stdin["memories"] == 3


def test_import_refuses_a_bad_file_with_its_line_number(cli: Cli, tmp_path: Any) -> None:
    new_user(cli)
    cli.json("spaces", "create", "--key", "eng", "--name", "Eng")
    path = tmp_path / "eng.jsonl"
    assert cli("export", "--space", "eng", "--output", str(path))[0] == 0
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0], '{"type": "memory", "id": "nope"}', *lines[1:]]) + "\n")
    err = cli.fails("import", str(path), "--space", "other")
    assert err.startswith("error: line 2: ") and "Nothing was imported" in err
    assert "No such file" in cli.fails("import", str(tmp_path / "missing.jsonl"), "--space", "x")
    assert "No space with key 'nope'" in cli.fails("export", "--space", "nope", "--output",
                                                   str(tmp_path / "n.jsonl"))
    assert not (tmp_path / "n.jsonl").exists() and not (tmp_path / "n.jsonl.part").exists()
    assert cli.count("spaces") == 1, "the refused import created no space"


def test_long_commands_draw_progress_on_a_terminal_only(cli: Cli, tmp_path: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    new_user(cli)
    key = new_key(cli)
    cli.json("spaces", "create", "--key", "eng", "--name", "Eng")
    cli.json("grants", "set", "--key", key["id"], "--space", "eng", "--access", "readwrite")
    save_memories(cli, key["key"], "eng", ["Deploys freeze on Fridays.", "CI runs on Graviton."])

    code, out, err = cli("reembed", "--yes")  # captured stderr is no terminal: no bar
    assert code == 0 and "reembedded=2" in out and err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    code, out, err = cli("reembed", "--yes")
    assert code == 0 and "\rreembed  [" in err and "100%  2/2" in err and err.endswith("\n")
    code, _, err = cli("export", "--space", "eng", "--output", str(tmp_path / "e.jsonl"))
    assert code == 0 and "\rexport   [" in err and "100%" in err
    code, _, err = cli("import", str(tmp_path / "e.jsonl"), "--space", "eng2")
    assert code == 0 and "\rimport   [" in err and "100%" in err
    code, out, err = cli("--json", "reembed", "--yes")  # --json: quiet even on a terminal
    assert code == 0 and err == "" and json.loads(out)["reembedded"] == 4


def test_unreachable_database_and_bad_limits_are_one_line_errors(
        capsys: pytest.CaptureFixture[str], database_url: str) -> None:
    """An operator's typo gets the documented one-line ``error:``, never a traceback."""
    gone = settings_for("postgresql://nobody@127.0.0.1:1/none")
    assert run(["users", "list"], settings=gone) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the database could not be reached (") and err.count("\n") == 1
    assert run(["audit", "--limit", "-1"], settings=settings_for(database_url)) == 1
    assert "--limit must be between 1 and 10,000; got -1." in capsys.readouterr().err


@pytest.mark.anyio
async def test_admin_refuses_what_could_never_work(runtime: Any, world: Any) -> None:
    """A key for a deactivated user, a grant on a revoked key, a blank space name, an empty
    --user filter: each refused (or, for the name, the key used), not accepted silently."""
    from memory_mcp.errors import InvalidInputError
    from memory_mcp.services import admin

    m = await world.member(grants={await world.space(): "readwrite"})
    await admin.update_user(runtime, m.user["email"], active=False)
    with pytest.raises(InvalidInputError, match="is deactivated; reactivate them first"):
        await admin.create_key(runtime, m.user["email"], "laptop")
    other = await world.member(grants={})
    await admin.revoke_key(runtime, other.key_id)
    space = await world.space()
    with pytest.raises(InvalidInputError, match="is revoked; create a new key"):
        await admin.set_grant(runtime, other.key_id, space, "read")
    created = await admin.create_space(runtime, f"blank-{uuid.uuid4().hex[:8]}", "   ")
    assert created["name"] == created["key"]
    with pytest.raises(InvalidInputError, match="--user must name a user"):
        await admin.list_keys(runtime, " ")
