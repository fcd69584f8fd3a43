"""A stand-in for the Lambda context object (test helper)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field


@dataclass
class FakeContext:
    """The attributes of a Lambda context object that Powertools and Mangum read."""

    function_name: str = "memory-mcp-test"
    function_version: str = "$LATEST"
    memory_limit_in_mb: int = 1024
    invoked_function_arn: str = "arn:aws:lambda:eu-west-1:123456789012:function:memory-mcp-test"
    aws_request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    log_group_name: str = "/aws/lambda/memory-mcp-test"
    log_stream_name: str = "test"

    def get_remaining_time_in_millis(self) -> int:
        return 30_000
