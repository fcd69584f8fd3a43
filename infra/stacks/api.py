"""The HTTP API in front of ``mcp_http``: routes, throttling and JSON access logs."""

from __future__ import annotations

import json

import jsii
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_apigatewayv2 as apigwv2
from aws_cdk import aws_apigatewayv2_integrations as integrations
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs

from infra.stacks.common import Base, acknowledge

#: One JSON object per request; no headers (so never the Authorization header), no bodies.
ACCESS_LOG_FORMAT = json.dumps({
    "requestId": "$context.requestId", "ip": "$context.identity.sourceIp",
    "requestTime": "$context.requestTime", "method": "$context.httpMethod",
    "routeKey": "$context.routeKey", "status": "$context.status",
    "protocol": "$context.protocol", "responseLength": "$context.responseLength",
    "integrationLatency": "$context.integration.latency",
    "integrationError": "$context.integrationErrorMessage",
})


@jsii.implements(apigwv2.IAccessLogSettings)
class _AccessLogs:
    """HTTP API access logs: JSON lines into a CloudWatch log group."""

    def __init__(self, log_group: logs.ILogGroup) -> None:
        self._destination = apigwv2.LogGroupLogDestination(log_group)

    @property
    def destination(self) -> apigwv2.IAccessLogDestination:
        return self._destination

    @property
    def format(self) -> apigw.AccessLogFormat:
        return apigw.AccessLogFormat.custom(ACCESS_LOG_FORMAT)


def build_api(base: Base, target: lambda_.IFunction) -> tuple[apigwv2.HttpApi, apigwv2.HttpStage]:
    stack, api_cfg = base.stack, base.config.api
    api = apigwv2.HttpApi(stack, "Api", api_name=f"memory-mcp-{base.config.name}",
                          create_default_stage=False,
                          description="Memory-MCP: remote MCP over stateless streamable HTTP")
    integration = integrations.HttpLambdaIntegration("McpIntegration", target)
    # GET and DELETE reach the app too, which answers 405: MCP clients probe GET /mcp for an
    # SSE stream and treat 405 (not API Gateway's 404) as "this server has none".
    api.add_routes(path="/mcp", integration=integration,
                   methods=[apigwv2.HttpMethod.POST, apigwv2.HttpMethod.GET,
                            apigwv2.HttpMethod.DELETE])
    api.add_routes(path="/healthz", integration=integration, methods=[apigwv2.HttpMethod.GET])
    api.add_routes(path="/uploads", integration=integration, methods=[apigwv2.HttpMethod.POST])
    access_logs = base.log_group("ApiAccess")
    stage = apigwv2.HttpStage(
        stack, "DefaultStage", http_api=api, stage_name="$default", auto_deploy=True,
        throttle=apigwv2.ThrottleSettings(rate_limit=api_cfg.throttle_rate_limit,
                                          burst_limit=api_cfg.throttle_burst_limit),
        access_log_settings=_AccessLogs(access_logs),
    )
    acknowledge(api, "AwsSolutions-APIG4",
                "Every route is authenticated by the application: a bearer API key checked "
                "against its SHA-256 before MCP sees the request (401 otherwise); /healthz "
                "is a deliberate unauthenticated liveness probe. An API Gateway authorizer "
                "would repeat the same database lookup.")
    return api, stage
