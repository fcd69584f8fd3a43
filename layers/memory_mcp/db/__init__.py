"""The only place with SQL: pool, migrator, embedded server and one module per aggregate."""
