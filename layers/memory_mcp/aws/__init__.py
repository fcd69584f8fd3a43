"""AWS integrations, each creating its boto3 client once per process."""
