"""Stand-ins on loopback for ``tests/test_layer.py``'s upload → extract flow.

* ``moto_aws``: a moto server (``moto[server]``, in a thread of the test process) with the
  uploads bucket wired to a queue as the stack wires them (``s3:ObjectCreated:*`` under
  ``uploads/`` → SQS), so S3 writes the notification bodies the extract Lambda receives. The
  Lambda children reach it through ``AWS_ENDPOINT_URL_S3`` / ``AWS_ENDPOINT_URL_TEXTRACT``.
* ``textract_lines``: what moto's Textract answers to ``DetectDocumentText`` (it ignores the
  image): set on the backend class, which the server thread shares with the test.
* ``fake_embeddings``: an OpenAI-compatible ``POST /v1/embeddings`` (Bedrock is the hosted
  provider, but moto does not serve it) answering bag-of-hashed-words vectors: deterministic,
  and texts that share words are close, so a semantic search finds the right memory.
* ``sqs_event``: the event the Lambda SQS poller hands the function for those bodies.
* ``aes_pdf``, ``gif``: uploads that need the layer's compiled extensions to be read.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import boto3
import httpx

REGION = "eu-west-1"
#: A model the OpenAI provider knows the width of (no MEMORY_MCP_EMBEDDING_DIMENSIONS needed).
EMBEDDING_MODEL, EMBEDDING_DIMENSIONS = "text-embedding-3-small", 1536
#: Hosts a child may reach in this flow: the moto server and the embeddings server.
LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def embedding(text: str, dimensions: int) -> list[float]:
    """Word counts hashed into ``dimensions`` buckets (the client L2-normalises them)."""
    vector = [0.0] * dimensions
    for word in re.findall(r"\w+", text.lower()):
        vector[int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest()) % dimensions] += 1
    if not any(vector):
        vector[0] = 1.0
    return vector


class EmbeddingsServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _EmbeddingsHandler)
        self.requests: list[dict[str, Any]] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class _EmbeddingsHandler(BaseHTTPRequestHandler):
    server: EmbeddingsServer

    def do_POST(self) -> None:
        if self.path != "/v1/embeddings":
            self.send_error(404)
            return
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        self.server.requests.append(body)
        width = int(body.get("dimensions", EMBEDDING_DIMENSIONS))
        data = [{"object": "embedding", "index": index, "embedding": embedding(text, width)}
                for index, text in enumerate(body["input"])]
        payload = json.dumps({"object": "list", "data": data, "model": body["model"],
                              "usage": {"prompt_tokens": 0, "total_tokens": 0}}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass


@contextmanager
def fake_embeddings() -> Iterator[EmbeddingsServer]:
    server = EmbeddingsServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@dataclass
class MotoAws:
    endpoint: str
    bucket: str
    s3: Any
    sqs: Any
    queue_url: str
    queue_arn: str

    def notifications(self) -> list[str]:
        """Every message S3 has sent to the queue so far (bodies), deleted once read."""
        bodies: list[str] = []
        while True:
            got = self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10)
            if not got.get("Messages"):
                return bodies
            for message in got["Messages"]:
                bodies.append(message["Body"])
                self.sqs.delete_message(QueueUrl=self.queue_url,
                                        ReceiptHandle=message["ReceiptHandle"])


def wire_uploads_queue(s3: Any, sqs: Any, bucket: str, queue: str) -> tuple[str, str]:
    """A queue that receives the bucket's ``s3:ObjectCreated:*`` under ``uploads/``, as the
    stack wires them; returns (queue URL, queue ARN)."""
    queue_url = sqs.create_queue(QueueName=queue)["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["QueueArn"])[
        "Attributes"]["QueueArn"]
    s3.put_bucket_notification_configuration(Bucket=bucket, NotificationConfiguration={
        "QueueConfigurations": [{"QueueArn": arn, "Events": ["s3:ObjectCreated:*"],
                                 "Filter": {"Key": {"FilterRules": [
                                     {"Name": "prefix", "Value": "uploads/"}]}}}]})
    return str(queue_url), str(arn)


@contextmanager
def moto_aws(bucket: str) -> Iterator[MotoAws]:
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    endpoint = "http://{}:{}".format(*server.get_host_and_port())
    session = boto3.session.Session(aws_access_key_id="testing", aws_secret_access_key="testing",
                                    region_name=REGION)
    s3 = session.client("s3", endpoint_url=endpoint)
    sqs = session.client("sqs", endpoint_url=endpoint)
    try:
        s3.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": REGION})
        queue_url, arn = wire_uploads_queue(s3, sqs, bucket, f"extract-{uuid.uuid4().hex[:8]}")
        yield MotoAws(endpoint, bucket, s3, sqs, queue_url, arn)
    finally:
        # moto's backends are process-wide: leave nothing behind for later tests.
        httpx.post(f"{endpoint}/moto-api/reset", timeout=10)
        s3.close()
        sqs.close()
        server.stop()


@contextmanager
def textract_lines(lines: list[str]) -> Iterator[None]:
    from moto.textract.models import TextractBackend

    before = TextractBackend.BLOCKS
    TextractBackend.BLOCKS = [{"BlockType": "LINE", "Id": str(uuid.uuid4()), "Text": line,
                               "Confidence": 99.0} for line in lines]
    try:
        yield
    finally:
        TextractBackend.BLOCKS = before


def aes_pdf(sentence: str) -> bytes:
    """AES-256 encrypted with an empty user password: opens for anyone, but pypdf needs the
    ``cryptography`` package (pypdf[crypto]) to decrypt it."""
    from fpdf import FPDF
    from fpdf.enums import EncryptionMethod

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.multi_cell(0, 7, sentence)
    pdf.set_encryption(owner_password="owner-secret", user_password="",
                       encryption_method=EncryptionMethod.AES_256)
    return bytes(pdf.output())


def gif() -> bytes:
    """A real GIF: hosted OCR converts it to PNG with Pillow (Textract reads PNG and JPEG only)."""
    from PIL import Image, ImageDraw

    image = Image.new("P", (320, 60), color=0)
    ImageDraw.Draw(image).rectangle((10, 10, 300, 50), outline=1)
    out = io.BytesIO()
    image.save(out, format="GIF")
    return out.getvalue()


def sqs_event(bodies: list[str], queue_arn: str) -> dict[str, Any]:
    """The SQS event source mapping's event for these message bodies (one record each)."""
    return {"Records": [{
        "messageId": str(uuid.uuid4()), "receiptHandle": uuid.uuid4().hex, "body": body,
        "attributes": {"ApproximateReceiveCount": "1", "SentTimestamp": "0",
                       "SenderId": "AIDAS3NOTIFICATIONS", "ApproximateFirstReceiveTimestamp": "0"},
        "messageAttributes": {}, "md5OfBody": hashlib.md5(body.encode()).hexdigest(),  # noqa: S324
        "eventSource": "aws:sqs", "eventSourceARN": queue_arn, "awsRegion": REGION}
        for body in bodies]}
