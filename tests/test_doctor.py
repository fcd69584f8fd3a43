"""``memory-mcp doctor``, the ``serve`` startup summary and the quiet embedded PostgreSQL.

Against the real session PostgreSQL (healthy, un-migrated, model mismatch, unreachable) and the
real local checks (a data dir that cannot be created, a missing Tesseract, an LLM without a
model, signing keys, Host allow-lists); S3 storage through moto only.
"""

from __future__ import annotations

import io
import json
import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pydantic import SecretStr

from memory_mcp.cli import run
from memory_mcp.config import Settings
from memory_mcp.db.embedded import LOG_NAME, embedded_database_url, stop_embedded
from memory_mcp.services.doctor import render, run_checks
from memory_mcp.services.doctor_local import Check, local_checks, missing_summary

from conftest import ROOT, empty_database, settings_for


def by_name(checks: list[Check]) -> dict[str, Check]:
    return {c.name: c for c in checks}


def test_a_healthy_database_passes_every_database_check(make_database: Any, tmp_path: Path
                                                        ) -> None:
    url = make_database()
    checks = by_name(run_checks(settings_for(url, data_dir=tmp_path)))
    assert checks["database"].status == "ok" and "reachable" in checks["database"].detail
    assert checks["postgresql"].status == "ok" and checks["postgresql"].detail.startswith(
        "PostgreSQL 1")
    assert checks["pgvector"].status == "ok"
    migrations = len(list((ROOT / "migrations").glob("*.sql")))
    assert checks["migrations"] == Check("migrations", "ok", f"all {migrations} applied")
    assert checks["embedding model"].status == "info", "nothing pinned before the first start"
    assert checks["storage"].status == "info", "doctor does not create the data dir"
    assert not (tmp_path / "objects").exists()

    (tmp_path / "objects").mkdir()
    assert by_name(run_checks(settings_for(url, data_dir=tmp_path)))["storage"].status == "ok"
    assert list((tmp_path / "objects").iterdir()) == [], "the probe is removed"


def test_large_spaces_sharing_a_graph_are_named(make_database: Any, tmp_path: Path) -> None:
    url = make_database()
    settings = settings_for(url, data_dir=tmp_path)
    assert by_name(run_checks(settings))["search graphs"].status == "ok"
    with psycopg.connect(url) as conn:  # two large spaces in bucket 3, one in bucket 4
        conn.execute(
            """INSERT INTO spaces (id, key, name, description)
               SELECT id, 'big-' || b || '-' || row_number() OVER (), 'x', ''
               FROM (SELECT id, uuid_hash(id) & 15 AS b
                     FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, 2000)) g) h
               WHERE (b = 3 AND id::text < '8') OR b = 4""")
        conn.execute("""DELETE FROM spaces WHERE key NOT IN (
                            (SELECT min(key) FROM spaces WHERE key LIKE 'big-3-%'),
                            (SELECT max(key) FROM spaces WHERE key LIKE 'big-3-%'),
                            (SELECT min(key) FROM spaces WHERE key LIKE 'big-4-%'))""")
        conn.execute("""INSERT INTO space_stats (space_id, live_memories, all_memories)
                        SELECT id, 25000 + row_number() OVER (ORDER BY key), 30000 FROM spaces""")
        keys = [r[0] for r in conn.execute("SELECT key FROM spaces ORDER BY key").fetchall()]
    assert len(keys) == 3
    graphs = by_name(run_checks(settings))["search graphs"]
    assert graphs.status == "info" and "export it and import it" in graphs.fix
    assert keys[0] in graphs.detail and keys[1] in graphs.detail and keys[2] not in graphs.detail
    assert "25,00" in graphs.detail


def test_pending_migrations_are_reported_and_not_applied(pg_root_url: str, tmp_path: Path) -> None:
    url = empty_database(pg_root_url)
    checks = by_name(run_checks(settings_for(url, data_dir=tmp_path)))
    assert checks["migrations"].status == "warn" and "the next start applies them" in \
        checks["migrations"].detail
    assert checks["migrations"].fix == "Run `memory-mcp migrate`."
    assert checks["pgvector"].status == "warn" and "not created" in checks["pgvector"].detail
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT to_regclass('schema_migrations')").fetchone() == (None,)
    strict = by_name(run_checks(settings_for(url, data_dir=tmp_path, auto_migrate=False)))
    assert strict["migrations"].status == "fail"


def test_a_changed_model_fails_with_the_reembed_fix(make_database: Any, tmp_path: Path) -> None:
    url = make_database()
    with psycopg.connect(url) as conn:
        conn.execute("INSERT INTO embedding_model (model_id, dimensions) VALUES "
                     "('amazon.titan-embed-text-v2:0', 1024)")
    model = by_name(run_checks(settings_for(url, data_dir=tmp_path)))["embedding model"]
    assert model.status == "fail" and "pinned amazon.titan-embed-text-v2:0 (1024 dims)" in \
        model.detail
    assert "memory-mcp reembed --yes" in model.fix


def test_unreachable_database_fails_without_showing_the_password(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(database_url=SecretStr(
        "postgresql://memory:hunter2-secret@127.0.0.1:1/memory"), data_dir=tmp_path,
        db_connect_timeout_seconds=2)
    code = run(["doctor", "--json"], settings=settings)
    out, err = capsys.readouterr()
    report = json.loads(out)
    assert code == 1 and report["ok"] is False and err == ""
    (database,) = [c for c in report["checks"] if c["name"] == "database"]
    assert database["status"] == "fail" and database["detail"] == \
        "cannot connect to 127.0.0.1:1/memory"
    assert "hunter2" not in out
    assert [c["name"] for c in report["checks"]][1:] == [
        "storage", "ocr", "transcription", "llm", "upload signing", "allowed hosts"]

    assert run(["doctor"], settings=settings) == 1
    human = capsys.readouterr().out
    assert human.startswith("FAIL  database") and "fix: Check that PostgreSQL is running" in human
    assert "1 failed, " in human.splitlines()[-1]


def test_doctor_does_not_create_an_embedded_cluster(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "MEMORY_MCP_DATABASE_URL", "MEMORY_MCP_DATABASE_SECRET_ARN"):
        monkeypatch.delenv(name, raising=False)
    settings = Settings(data_dir=tmp_path / "data")
    assert settings.database_url is None
    (database,) = [c for c in run_checks(settings) if c.name == "database"]
    assert database.status == "info" and "created in" in database.detail
    assert not (tmp_path / "data").exists(), "doctor leaves a fresh machine as it found it"


def test_local_findings_each_say_how_to_fix(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    checks = by_name(local_checks(Settings(
        data_dir=blocker / "data", tesseract_cmd="/nonexistent/tesseract", llm_provider="openai",
        upload_signing_secret=SecretStr("tiny-s3cret"), host="0.0.0.0")))  # noqa: S104
    assert checks["storage"].status == "fail" and "MEMORY_MCP_DATA_DIR" in checks["storage"].fix
    assert checks["ocr"].status == "warn" and "Install Tesseract" in checks["ocr"].fix
    assert checks["transcription"].status == "warn"
    assert "MEMORY_MCP_TRANSCRIPTION_BASE_URL" in checks["transcription"].fix
    assert checks["llm"].status == "fail" and "MEMORY_MCP_LLM_MODEL" in checks["llm"].detail
    assert checks["upload signing"].status == "warn"
    assert checks["allowed hosts"].status == "warn" and "MEMORY_MCP_ALLOWED_HOSTS" in \
        checks["allowed hosts"].fix
    assert "tiny-s3cret" not in json.dumps([c.as_dict() for c in checks.values()]), "never a secret"

    key_file = tmp_path / "upload-signing.key"
    key_file.write_text("k" * 43)
    key_file.chmod(0o644)
    calm = by_name(local_checks(Settings(data_dir=tmp_path, allowed_hosts=["memory.example.com"])))
    assert calm["upload signing"].status == "warn" and "chmod 600" in calm["upload signing"].fix
    key_file.chmod(0o600)
    calm = by_name(local_checks(Settings(data_dir=tmp_path, allowed_hosts=["memory.example.com"])))
    assert calm["upload signing"].status == "ok"
    assert calm["allowed hosts"] == Check("allowed hosts", "ok", "memory.example.com")
    whisper = by_name(local_checks(Settings(data_dir=tmp_path,
                                            transcription_base_url="http://127.0.0.1:9/v1")))
    assert whisper["transcription"].status == "ok"
    assert "MEMORY_MCP_TRANSCRIPTION_BASE_URL" in whisper["transcription"].detail
    if shutil.which("tesseract"):
        assert calm["ocr"].status == "ok" and calm["ocr"].detail.startswith("Tesseract (")


def test_s3_storage_is_probed_with_a_real_put_and_delete(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import boto3
    import moto

    for name, value in {"AWS_DEFAULT_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "testing",
                        "AWS_SECRET_ACCESS_KEY": "testing"}.items():
        monkeypatch.setenv(name, value)
    with moto.mock_aws():
        s3 = boto3.client("s3")
        s3.create_bucket(Bucket="doctor-ok", CreateBucketConfiguration={
            "LocationConstraint": "eu-west-1"})
        ok = by_name(local_checks(Settings(data_dir=tmp_path, uploads_bucket="doctor-ok")))
        assert ok["storage"].status == "ok" and ok["upload signing"].status == "ok"
        assert ok["ocr"].detail == "Amazon Textract"
        assert ok["transcription"].detail == "Amazon Transcribe"
        assert s3.list_objects_v2(Bucket="doctor-ok").get("KeyCount") == 0, "probe removed"
        missing = by_name(local_checks(Settings(data_dir=tmp_path, uploads_bucket="no-such")))
        assert missing["storage"].status == "fail" and "NoSuchBucket" in missing["storage"].detail


def test_render_and_summary() -> None:
    checks = [Check("database", "ok", "reachable"), Check("ocr", "warn", "no OCR", "Install it."),
              Check("llm", "info", "offline", "Set it.")]
    text = render(checks)
    assert "WARN  ocr" in text and "fix: Install it." in text and "fix: Set it." in text
    assert missing_summary(checks) == ("Not set up: ocr (no OCR). Run `memory-mcp doctor` for "
                                       "how to fix.")
    assert missing_summary(checks[:1]) is None
    assert render(checks[:1]).endswith("All good.")


def test_serve_prints_a_short_first_start(pg_root_url: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str],
                                          caplog: pytest.LogCaptureFixture) -> None:
    """Everything ``serve`` prints before uvicorn takes over (its blocking run is replaced)."""
    import uvicorn

    from memory_mcp import server_main

    ran: list[uvicorn.Server] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: ran.append(self))
    caplog.set_level(logging.INFO)
    server_main.serve(settings_for(empty_database(pg_root_url), data_dir=tmp_path,
                                   tesseract_cmd="/nonexistent/tesseract"), port=18999)
    out = capsys.readouterr().out
    assert ran, "uvicorn was started"
    assert "First start on an empty database" in out
    summary = [line for line in out.splitlines() if line.startswith("Not set up: ")]
    assert len(summary) == 1 and "ocr (no OCR" in summary[0] and "memory-mcp doctor" in summary[0]
    assert out.rstrip().endswith("(health: http://127.0.0.1:18999/healthz)")
    applied = [r.getMessage() for r in caplog.records if r.name == "memory_mcp.db.migrator"
               or "migration" in r.getMessage()]
    count = len(list((ROOT / "migrations").glob("*.sql")))
    assert len(applied) == 1 and applied[0].startswith(f"applied {count} migration(s): 0001_")


def test_embedded_postgres_output_goes_to_a_log_file(capfd: pytest.CaptureFixture[str]) -> None:
    """A fresh cluster: initdb's screenful lands in the data dir's log; a console handler on the
    root logger (what ``serve``'s logging.basicConfig installs) gets one line saying where.
    (pytest's own capture handler also listens on non-propagating loggers, hence our own.)"""
    data_dir = Path(tempfile.mkdtemp(prefix="memory-mcp-doctor-pg-"))
    data_dir.chmod(0o755)
    console = io.StringIO()
    handler = logging.StreamHandler(console)
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    # Earlier tests may leave the package's loggers at another level or disabled (a uvicorn
    # dictConfig, caplog): the line under test must not depend on the order tests run in.
    ours = logging.getLogger("memory_mcp.db.embedded")
    package = logging.getLogger("memory_mcp")  # Powertools (aws/observability) stops propagation
    saved = (ours.level, ours.disabled, package.level, package.propagate)
    ours.setLevel(logging.INFO)
    ours.disabled = False
    package.setLevel(logging.NOTSET)
    package.propagate = True
    try:
        url = embedded_database_url(data_dir)
        with psycopg.connect(url) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
        ours.setLevel(saved[0])
        ours.disabled = saved[1]
        package.setLevel(saved[2])
        package.propagate = saved[3]
        stop_embedded(data_dir)
    try:
        out, err = capfd.readouterr()
        shown = console.getvalue() + out + err
        assert "initdb" not in shown and "Running commandline" not in shown
        (line,) = [x for x in console.getvalue().splitlines() if "embedded PostgreSQL" in x]
        assert line.startswith("embedded PostgreSQL created in ") and LOG_NAME in line
        assert "initdb" in (data_dir / LOG_NAME).read_text()
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
