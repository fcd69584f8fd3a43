"""Uploads: the private bucket (and its access-log bucket), the extraction queue and its DLQ,
and the exports bucket of the admin function's ``export``/``import``.

S3 notifies the queue for every object created under ``uploads/`` (only there: ``imports/``,
``doctor/`` and ``transcripts/`` never reach extraction); ``extract`` consumes it. Exports are a
whole space (memories, embeddings, optionally every original) in one object: they live in a
bucket of their own, which no request path can reach and whose objects expire.
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_notifications as s3n
from aws_cdk import aws_sqs as sqs

from infra.stacks.common import (
    EXPORTS_EXPIRE_AFTER_DAYS,
    UPLOADS_PREFIX,
    VISIBILITY_TIMEOUT_FACTOR,
    Base,
    acknowledge,
)


@dataclass(frozen=True)
class Uploads:
    access_logs: s3.Bucket
    bucket: s3.Bucket
    queue: sqs.Queue
    dlq: sqs.Queue
    #: ``export --output s3://<this>/<key>`` and ``import s3://<this>/<key>`` (admin only).
    exports: s3.Bucket


def build_uploads(base: Base) -> Uploads:
    stack, uploads = base.stack, base.config.uploads
    access_logs = s3.Bucket(
        stack, "AccessLogs", encryption=s3.BucketEncryption.S3_MANAGED, enforce_ssl=True,
        minimum_tls_version=1.2, block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
        object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        lifecycle_rules=[s3.LifecycleRule(id="expire-access-logs",
                                          expiration=Duration.days(365))],
        removal_policy=RemovalPolicy.RETAIN,
    )
    acknowledge(access_logs, "AwsSolutions-S1",
                "This is the server access log bucket of the uploads and exports buckets; "
                "logging its own accesses would recurse.")
    bucket = s3.Bucket(
        stack, "Uploads", encryption=s3.BucketEncryption.S3_MANAGED, enforce_ssl=True,
        minimum_tls_version=1.2, block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
        object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        server_access_logs_bucket=access_logs, server_access_logs_prefix="uploads/",
        cors=[s3.CorsRule(allowed_methods=[s3.HttpMethods.PUT],
                          allowed_origins=list(uploads.cors_allowed_origins),
                          allowed_headers=["*"], exposed_headers=["ETag"], max_age=3000)],
        lifecycle_rules=[
            s3.LifecycleRule(id="abort-incomplete-uploads",
                             abort_incomplete_multipart_upload_after=Duration.days(1)),
            s3.LifecycleRule(id="infrequent-access", transitions=[s3.Transition(
                storage_class=s3.StorageClass.INFREQUENT_ACCESS,
                transition_after=Duration.days(uploads.infrequent_access_after_days))]),
        ],
        removal_policy=RemovalPolicy.RETAIN,
    )
    exports = s3.Bucket(
        stack, "Exports", encryption=s3.BucketEncryption.S3_MANAGED, enforce_ssl=True,
        minimum_tls_version=1.2, block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
        object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        server_access_logs_bucket=access_logs, server_access_logs_prefix="exports/",
        lifecycle_rules=[
            # Large exports are multipart uploads; the function may not abort one itself.
            s3.LifecycleRule(id="abort-incomplete-uploads",
                             abort_incomplete_multipart_upload_after=Duration.days(1)),
            s3.LifecycleRule(id="expire-exports",
                             expiration=Duration.days(EXPORTS_EXPIRE_AFTER_DAYS)),
        ],
        removal_policy=RemovalPolicy.RETAIN,
    )
    dlq = sqs.Queue(
        stack, "ExtractDlq", encryption=sqs.QueueEncryption.SQS_MANAGED, enforce_ssl=True,
        retention_period=Duration.days(14),
    )
    acknowledge(dlq, "AwsSolutions-SQS3",
                "This queue is the dead-letter queue of the extraction queue.")
    extract = base.config.extract
    queue = sqs.Queue(
        stack, "ExtractQueue", encryption=sqs.QueueEncryption.SQS_MANAGED, enforce_ssl=True,
        visibility_timeout=Duration.seconds(VISIBILITY_TIMEOUT_FACTOR * extract.timeout_seconds
                                            + extract.max_batching_window_seconds),
        retention_period=Duration.days(4),
        dead_letter_queue=sqs.DeadLetterQueue(queue=dlq,
                                              max_receive_count=extract.max_receive_count),
    )
    # Only uploads/ is extracted: import originals (imports/), doctor's probe (doctor/) and
    # Transcribe's results (transcripts/) are written to this bucket too and must never be.
    bucket.add_event_notification(
        s3.EventType.OBJECT_CREATED, s3n.SqsDestination(queue),
        s3.NotificationKeyFilter(prefix=UPLOADS_PREFIX),
    )
    # The notification's allow is conditioned on the bucket ARN only; a bucket name can be
    # taken by another account once deleted, so S3 may send for this account alone.
    queue.add_to_resource_policy(iam.PolicyStatement(
        effect=iam.Effect.DENY, principals=[iam.ServicePrincipal("s3.amazonaws.com")],
        actions=["sqs:SendMessage"], resources=[queue.queue_arn],
        conditions={"StringNotEquals": {"aws:SourceAccount": stack.account}}))
    return Uploads(access_logs, bucket, queue, dlq, exports)
