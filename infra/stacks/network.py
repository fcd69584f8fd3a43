"""The VPC: private isolated subnets only, flow logs, VPC endpoints and the functions' groups.

Nothing has a route to the internet (no NAT, no internet gateway): the functions reach AWS APIs
through VPC endpoints, so HTTPS egress can only ever reach those.
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import aws_ec2 as ec2

from infra.stacks.common import Base


@dataclass(frozen=True)
class Network:
    vpc: ec2.Vpc
    subnets: ec2.SubnetSelection
    #: mcp_http and extract (request paths).
    app_sg: ec2.SecurityGroup
    #: migrate and admin (operator paths).
    ops_sg: ec2.SecurityGroup
    endpoint_sg: ec2.SecurityGroup
    #: Interface endpoints by service name (``secretsmanager``, ``sqs``, ...), in cdk.json order.
    endpoints: dict[str, ec2.InterfaceVpcEndpoint]


def build_network(base: Base) -> Network:
    stack = base.stack
    vpc = ec2.Vpc(
        stack, "Vpc", max_azs=2, nat_gateways=0,
        subnet_configuration=[ec2.SubnetConfiguration(
            name="isolated", subnet_type=ec2.SubnetType.PRIVATE_ISOLATED, cidr_mask=24)],
    )
    subnets = ec2.SubnetSelection(subnet_type=ec2.SubnetType.PRIVATE_ISOLATED)
    flow_logs = base.log_group("VpcFlowLogs")
    vpc.add_flow_log("FlowLog", destination=ec2.FlowLogDestination.to_cloud_watch_logs(
        flow_logs), traffic_type=ec2.FlowLogTrafficType.REJECT)
    vpc.add_gateway_endpoint("S3Endpoint", service=ec2.GatewayVpcEndpointAwsService.S3,
                             subnets=[subnets])
    # Functions serving requests (mcp_http, extract) and operator functions (migrate,
    # admin) get separate groups, so the database and proxy rules say who reaches what.
    app_sg = _lambda_sg(base, vpc, "AppFunctions", "mcp_http and extract")
    ops_sg = _lambda_sg(base, vpc, "OpsFunctions", "migrate and admin")
    endpoint_sg = ec2.SecurityGroup(stack, "EndpointsSg", vpc=vpc, allow_all_outbound=False,
                                    description="Interface VPC endpoints: HTTPS from the functions")
    for sg in (app_sg, ops_sg):
        endpoint_sg.add_ingress_rule(sg, ec2.Port.tcp(443), "HTTPS from the functions")
    endpoints: dict[str, ec2.InterfaceVpcEndpoint] = {}
    for service in base.config.interface_endpoints:
        endpoint_id = "".join(part.title() for part in service.replace(".", "-").split("-"))
        endpoints[service] = vpc.add_interface_endpoint(
            f"{endpoint_id}Endpoint", service=ec2.InterfaceVpcEndpointAwsService(service),
            subnets=subnets, security_groups=[endpoint_sg], private_dns_enabled=True,
            open=False,
        )
    return Network(vpc, subnets, app_sg, ops_sg, endpoint_sg, endpoints)


def _lambda_sg(base: Base, vpc: ec2.Vpc, name: str, who: str) -> ec2.SecurityGroup:
    sg = ec2.SecurityGroup(base.stack, f"{name}Sg", vpc=vpc, allow_all_outbound=False,
                           description=f"Lambda functions {who}")
    # Isolated subnets have no route to the internet: HTTPS can only reach the VPC
    # endpoints (interface endpoints and the S3 gateway endpoint's prefix list).
    sg.add_egress_rule(ec2.Peer.any_ipv4(), ec2.Port.tcp(443),
                       "HTTPS to VPC endpoints only (no internet route)")
    return sg
