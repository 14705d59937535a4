"""TPC-H in the users' pattern: the 22 queries in pandas, Polars and SQL, a generator, a runner."""
