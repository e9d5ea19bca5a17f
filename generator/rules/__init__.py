"""Validation rules, one module per rule or per small group that one check emits together; each
module declares its rules (id, family, documentation) beside its check. `catalog` assembles
them in run order. Kept free of imports, so that the loader can import its rule objects from
here while the rules import the loader."""
