"""Loading one spec file: its bytes parsed into plain data with the position of every value
(`parse`), plain scalars read as YAML 1.2 (`scalars`), and the yaml-* and schema-* rules these
stages and the entity builder report (`yaml_rules`, `schema_rules`). Below the typed model: it
imports nothing of the generator but generator/diagnostics.py."""
