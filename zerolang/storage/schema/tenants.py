"""PostgreSQL: what a tenant role (a role granted spaces, `zero memory grant`) may do, as SQL functions.

A tenant role shares every table with the other spaces' roles; row-level security keeps it to
its spaces' rows (`tables.policy`). What else a role can do with a shared table is kept off here:

- **no table-level write privilege**: a role may `SELECT` a table and `INSERT` and `UPDATE` its
  columns (column by column), never `DELETE`, `TRUNCATE`, `REFERENCES` or `TRIGGER` it. PostgreSQL
  lets a role `LOCK` a table in a mode stronger than `ACCESS SHARE` only with a table-level
  `INSERT`, `UPDATE`, `DELETE` or `TRUNCATE`, so no tenant can lock another space out;
- **no numbered column**: the columns a sequence numbers (`tables.serials`) are not the role's to
  write, so it cannot take a number ahead of the sequence and make another space's insert collide;
- **deletes through `zero_delete`**, a `SECURITY DEFINER` function that checks the caller may use
  the space (a grant to `session_user` or a role it is a member of), with its `search_path` fixed
  to the store's schema (a role's temporary tables shadow nothing);
- the owner gives a role exactly that with `zero_tenant_privileges(role)` (`PostgresBackend.grant_space`,
  and schema step 16 for the roles granted before it); no other role may run either function.
"""

from __future__ import annotations

from sqlalchemy import MetaData

from zerolang.storage.schema.tables import GRANTS, SPACES, serials

DELETE = "zero_delete(text, text, text, anyarray)"
PRIVILEGES = "zero_tenant_privileges(text)"
VERSION = "zero_schema_version"  # made by the engine before any step (`PostgresBackend._setup`)


def statements(schema: MetaData) -> list[str]:
    """The two functions, each executable by its owner alone (a tenant is granted `zero_delete`)."""
    return [
        _delete(sorted(name for name in schema.tables if name not in (GRANTS, SPACES))),
        f"REVOKE ALL ON FUNCTION {DELETE} FROM PUBLIC",
        _privileges(schema),
        f"REVOKE ALL ON FUNCTION {PRIVILEGES} FROM PUBLIC",
    ]


def regrant() -> str:
    """Give every role granted a space the privileges `zero_tenant_privileges` gives (a migration)."""
    return (
        "SELECT zero_tenant_privileges(g.role_name) FROM (SELECT DISTINCT role_name FROM"
        f" {GRANTS}) AS g JOIN pg_roles r ON r.rolname = g.role_name ORDER BY g.role_name"
    )


def _delete(tables: list[str]) -> str:
    """`zero_delete(tbl, space, col, keys)`: delete the rows of `space` in `tbl` (those whose `col` is
    one of `keys`, where `col` is given); made in the store's schema, which its `search_path` names."""
    names = ", ".join(f"'{name}'" for name in tables)
    return (
        "DO $do$ BEGIN EXECUTE format($f$"
        "CREATE OR REPLACE FUNCTION zero_delete(tbl text, sp text, col text, keys anyarray)"
        " RETURNS bigint LANGUAGE plpgsql SECURITY DEFINER SET search_path = %I, pg_temp AS $body$"
        " DECLARE n bigint;"
        " BEGIN"
        f" IF tbl IS NULL OR tbl <> ALL (ARRAY[{names}]) THEN"
        " RAISE EXCEPTION 'zero_delete: not a table of a space: %%', tbl"
        " USING ERRCODE = 'insufficient_privilege';"
        " END IF;"
        f" IF sp IS NULL OR NOT EXISTS (SELECT 1 FROM {GRANTS} g JOIN pg_roles r ON r.rolname = g.role_name"
        " WHERE g.space = sp AND g.space <> '' AND pg_has_role(session_user, r.oid, 'MEMBER')) THEN"
        " RAISE EXCEPTION 'permission denied: space %% is not granted to role %%', sp, session_user"
        " USING ERRCODE = 'insufficient_privilege';"
        " END IF;"
        " IF col IS NULL THEN"
        " EXECUTE format('DELETE FROM %%I WHERE space = $1', tbl) USING sp;"
        " ELSE"
        " EXECUTE format('DELETE FROM %%I WHERE space = $1 AND %%I = ANY($2)', tbl, col) USING sp, keys;"
        " END IF;"
        " GET DIAGNOSTICS n = ROW_COUNT;"
        " RETURN n;"
        " END $body$"
        "$f$, current_schema()); END $do$"
    )


def _privileges(schema: MetaData) -> str:
    """`zero_tenant_privileges(r)`: what a tenant role may do, and nothing more (see the module)."""
    tables = sorted(schema.tables)
    every = ", ".join([*tables, VERSION])
    body = [
        "EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', current_schema(), r);",
        f"EXECUTE format('REVOKE ALL ON {every} FROM %I', r);",
        f"EXECUTE format('GRANT SELECT ON {every} TO %I', r);",
    ]
    for name in tables:
        if name == GRANTS:
            continue
        table = schema.tables[name]
        numbered = serials(table)
        columns = ", ".join(column.name for column in table.columns if column.name not in numbered)
        body.append(f"EXECUTE format('GRANT INSERT ({columns}), UPDATE ({columns}) ON {name} TO %I', r);")
        for column in numbered:
            sequence = f"pg_get_serial_sequence('{name}', '{column}')"
            body.append(f"EXECUTE format('REVOKE ALL ON SEQUENCE %s FROM %I', {sequence}, r);")
            body.append(f"EXECUTE format('GRANT USAGE ON SEQUENCE %s TO %I', {sequence}, r);")
    body.append(f"EXECUTE format('GRANT EXECUTE ON FUNCTION {DELETE} TO %I', r);")
    return (
        "CREATE OR REPLACE FUNCTION zero_tenant_privileges(r text) RETURNS void LANGUAGE plpgsql AS $$"
        f" BEGIN {' '.join(body)} END $$"
    )
