"""The edges: what touches the outside world. The command line (`cli`, `recommend`, `diff`,
`diff_format`), the MkDocs hook and its adapter (`mkdocs_hooks`, `mkdocs_adapter`), the site
folder replaced whole (`sitedir`) and the spec tree read from disk or git (`specfiles`).
Everything below this package is pure."""
