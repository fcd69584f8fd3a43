"""The alarm topic, the alarms that publish to it, and the stack's outputs."""

from __future__ import annotations

from aws_cdk import CfnOutput, Duration, RemovalPolicy
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cw_actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions

from infra.stacks.common import Base
from infra.stacks.database import Database
from infra.stacks.functions import Functions
from infra.stacks.uploads import Uploads


def build_alarm_topic(base: Base) -> sns.Topic:
    stack = base.stack
    key = kms.Key(stack, "AlarmsKey", enable_key_rotation=True,
                  description="Encrypts the Memory-MCP alarm topic",
                  removal_policy=RemovalPolicy.DESTROY, pending_window=Duration.days(7))
    # CloudWatch alarms publish to the encrypted topic: they need the key.
    key.grant(iam.ServicePrincipal("cloudwatch.amazonaws.com"), "kms:Decrypt",
              "kms:GenerateDataKey*")
    topic = sns.Topic(stack, "Alarms", master_key=key, enforce_ssl=True,
                      display_name=f"Memory-MCP {base.config.name} alarms")
    if base.config.alarms.email:
        topic.add_subscription(subscriptions.EmailSubscription(base.config.alarms.email))
    return topic


def _alarm(base: Base, topic: sns.ITopic, name: str, metric: cloudwatch.IMetric, *,
           threshold: float, periods: int, comparison: cloudwatch.ComparisonOperator,
           description: str) -> cloudwatch.Alarm:
    alarm = cloudwatch.Alarm(
        base.stack, name, metric=metric, threshold=threshold, evaluation_periods=periods,
        datapoints_to_alarm=periods, comparison_operator=comparison,
        treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
        alarm_description=description,
    )
    alarm.add_alarm_action(cw_actions.SnsAction(topic))
    return alarm


def build_alarms(base: Base, topic: sns.ITopic, api: apigwv2.HttpApi, uploads: Uploads,
                 database: Database) -> None:
    alarms = base.config.alarms
    five_minutes = Duration.minutes(5)
    dimensions = {"ApiId": api.api_id}
    rate = cloudwatch.MathExpression(
        expression="IF(requests > 0, 100 * errors / requests, 0)",
        using_metrics={
            "errors": cloudwatch.Metric(namespace="AWS/ApiGateway", metric_name="5xx",
                                        dimensions_map=dimensions, statistic="Sum",
                                        period=five_minutes),
            "requests": cloudwatch.Metric(namespace="AWS/ApiGateway", metric_name="Count",
                                          dimensions_map=dimensions, statistic="Sum",
                                          period=five_minutes),
        },
        label="5xx rate (%)", period=five_minutes,
    )
    greater = cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD
    _alarm(base, topic, "Api5xxRate", rate, threshold=alarms.api_5xx_rate_percent, periods=2,
           comparison=greater,
           description="More than the configured share of API requests ended in 5xx.")
    _alarm(base, topic, "ExtractDlqDepth",
           uploads.dlq.metric_approximate_number_of_messages_visible(
               period=five_minutes, statistic="Maximum"),
           threshold=1, periods=1,
           comparison=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
           description="Uploads failed extraction repeatedly and reached the DLQ.")
    instance = database.instance
    _alarm(base, topic, "DatabaseCpu", instance.metric_cpu_utilization(period=five_minutes),
           threshold=alarms.db_cpu_percent, periods=3, comparison=greater,
           description="Database CPU has been high for 15 minutes.")
    _alarm(base, topic, "DatabaseFreeStorage",
           instance.metric_free_storage_space(period=five_minutes, statistic="Minimum"),
           threshold=alarms.db_free_storage_gib * 2**30, periods=1,
           comparison=cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
           description="Database free storage is below the configured minimum.")


def build_outputs(base: Base, stage: apigwv2.HttpStage, functions: Functions, uploads: Uploads,
                  database: Database, topic: sns.ITopic) -> None:
    stack, url = base.stack, stage.url
    CfnOutput(stack, "McpUrl", value=f"{url}mcp", description="The MCP endpoint for clients")
    CfnOutput(stack, "HealthUrl", value=f"{url}healthz", description="Liveness + database check")
    CfnOutput(stack, "AdminFunctionName", value=functions.admin.function_name,
              description="aws lambda invoke --function-name <this> (see README)")
    CfnOutput(stack, "UploadsBucketName", value=uploads.bucket.bucket_name)
    CfnOutput(stack, "ExportsBucketName", value=uploads.exports.bucket_name,
              description="export --output / import s3://<this>/<key> (admin function)")
    CfnOutput(stack, "ExtractDlqUrl", value=uploads.dlq.queue_url)
    CfnOutput(stack, "ExtractDlqArn", value=uploads.dlq.queue_arn,
              description="aws sqs start-message-move-task --source-arn <this> (redrive)")
    CfnOutput(stack, "DatabaseEndpoint", value=database.instance_host)
    CfnOutput(stack, "DatabaseSecretArn", value=database.owner_secret.secret_arn,
              description="The owner (master user): migrations and admin")
    CfnOutput(stack, "DatabaseAppSecretArn", value=database.app_secret.secret_arn,
              description="The application login (memory_mcp_server), rotated automatically")
    if database.proxy is not None:
        CfnOutput(stack, "DatabaseProxyEndpoint", value=database.proxy.endpoint)
    CfnOutput(stack, "AlarmTopicArn", value=topic.topic_arn)
