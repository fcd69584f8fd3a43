"""cdk-nag findings about the functions' roles and runtimes, each acknowledged with its reason.

Acknowledgements that belong to one resource (the database, a bucket, the API) sit next to it;
these are the ones that span the functions and CDK's own framework functions.
"""

from __future__ import annotations

from aws_cdk import CfnElement, Stack
from aws_cdk import custom_resources as cr
from constructs import IConstruct

from infra.stacks.common import Base, acknowledge
from infra.stacks.functions import Functions
from infra.stacks.uploads import Uploads


def _logical_id(stack: Stack, construct: IConstruct) -> str:
    child = construct.node.default_child
    assert isinstance(child, CfnElement)
    return str(stack.resolve(stack.get_logical_id(child)))


def acknowledge_stack_wide(base: Base, functions: Functions, uploads: Uploads,
                           provider: cr.Provider) -> None:
    stack, config = base.stack, base.config
    managed = "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
    basic = f"AwsSolutions-IAM4[{managed}AWSLambdaBasicExecutionRole]"
    basic_reason = ("AWS's managed AWSLambdaBasicExecutionRole only lets the function write "
                    "its own CloudWatch Logs, which it needs.")
    notifications = stack.node.try_find_child(
        "BucketNotificationsHandler050a0587b7544547bf325f094a3db834")
    assert notifications is not None, "aws-cdk-lib renamed the S3 notifications handler"
    for framework in (provider, notifications):
        acknowledge(framework, basic, f"CDK's own custom-resource function: {basic_reason}")
    # The database's exported postgresql log group gets its retention from CDK's singleton
    # LogRetention function (the log group is created by RDS, not by the template).
    retention = stack.node.try_find_child("LogRetentionaae0aa3c5b4d4f87b02d85b201efdd8a")
    assert retention is not None, "aws-cdk-lib renamed the LogRetention function"
    acknowledge(retention, basic, f"CDK's own custom-resource function: {basic_reason}")
    acknowledge(retention, "AwsSolutions-IAM5[Resource::*]",
                "CDK's LogRetention function sets the retention of log groups it learns at "
                "deploy time (logs:PutRetentionPolicy / DeleteRetentionPolicy only).")
    for fn in functions.all():
        acknowledge(fn, basic, basic_reason)
        acknowledge(fn, f"AwsSolutions-IAM4[{managed}AWSLambdaVPCAccessExecutionRole]",
                    "AWS's managed AWSLambdaVPCAccessExecutionRole is what a function in a "
                    "VPC needs to manage its network interfaces; those EC2 actions cannot be "
                    "scoped to resources.")
    for fn in functions.all():
        acknowledge(fn, "AwsSolutions-L1",
                    "Pinned to python3.12: the layer is built for CPython 3.12 "
                    "(cp312 wheels, 3.12 byte code); move both together.")
        textract = fn is functions.extract and config.extraction.textract
        acknowledge(fn, "AwsSolutions-IAM5[Resource::*]",
                    "Active X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords "
                    "support no resource-level permissions"
                    + ("; nor does textract:DetectDocumentText (image OCR on bytes)."
                       if textract else "."))
    bucket = _logical_id(stack, uploads.bucket)
    uploaded = f"AwsSolutions-IAM5[Resource::<{bucket}.Arn>/uploads/*]"
    transcripts = f"AwsSolutions-IAM5[Resource::<{bucket}.Arn>/transcripts/*]"
    acknowledge(functions.mcp, uploaded,
                "s3:PutObject (presigned upload URLs) and s3:DeleteObject (deleteDocument), "
                "under uploads/ only: keys uploads/<space>/<document>/<file> are created "
                "per upload.")
    imported = f"AwsSolutions-IAM5[Resource::<{bucket}.Arn>/imports/*]"
    acknowledge(functions.mcp, imported,
                "s3:DeleteObject only, under imports/ only: deleteDocument removes the original "
                "that `import` stored for the document, at imports/<space>/<document>/<file>.")
    acknowledge(functions.mcp, transcripts,
                "s3:DeleteObject only, under transcripts/ only: deleteDocument removes the "
                "Transcribe result of the document, whose key is named per job.")
    acknowledge(functions.extract, uploaded,
                "s3:GetObject and s3:DeleteObject under uploads/ only: the extractor reads "
                "the uploaded objects the queue names (keys created per upload) and removes "
                "one whose document was deleted.")
    if config.extraction.transcribe:
        acknowledge(functions.extract, "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:"
                    "transcribe:<AWS::Region>:<AWS::AccountId>:transcription-job/*]",
                    "Transcription jobs are named per upload at run time; only Start/Get on "
                    "jobs of this account and region.")
        acknowledge(functions.extract, transcripts,
                    "Amazon Transcribe writes its result under transcripts/ with the caller's "
                    "permissions and the extractor reads it back; keys are per job.")
    migrate_versions = (f"AwsSolutions-IAM5[Resource::<{_logical_id(stack, functions.migrate)}"
                        ".Arn>:*]")
    acknowledge(provider, migrate_versions,
                "The CDK custom-resource framework may invoke any version of the migrate "
                "function (<arn>:*) and nothing else.")
    _acknowledge_admin(stack, functions, uploads, bucket)


def _acknowledge_admin(stack: Stack, functions: Functions, uploads: Uploads, bucket: str) -> None:
    """The admin commands' object-level S3 permissions (functions.grant_admin_s3)."""
    admin, exports = functions.admin, _logical_id(stack, uploads.exports)
    acknowledge(admin, f"AwsSolutions-IAM5[Resource::<{exports}.Arn>/*]",
                "s3:GetObject and s3:PutObject on the exports bucket only, which holds nothing "
                "but exports: export --output and import name any key in it at run time.")
    acknowledge(admin, f"AwsSolutions-IAM5[Resource::<{bucket}.Arn>/imports/*]",
                "s3:PutObject (import stores the originals an export carries, keys "
                "imports/<space>/<document>/<file>), s3:GetObject (export --with-files reads "
                "them back) and s3:DeleteObject (spaces delete removes them), under imports/ "
                "only.")
    acknowledge(admin, f"AwsSolutions-IAM5[Resource::<{bucket}.Arn>/transcripts/*]",
                "s3:DeleteObject only, under transcripts/ only: spaces delete removes the "
                "Transcribe results of the space's documents.")
    acknowledge(admin, f"AwsSolutions-IAM5[Resource::<{bucket}.Arn>/doctor/*]",
                "s3:PutObject and s3:DeleteObject under doctor/ only: doctor writes and removes "
                "one probe object with a random name there.")
    acknowledge(admin, f"AwsSolutions-IAM5[Resource::<{bucket}.Arn>/uploads/*]",
                "s3:GetObject and s3:DeleteObject under uploads/ only: export --with-files "
                "reads the uploaded originals of the exported space and spaces delete removes "
                "them (keys created per upload).")
