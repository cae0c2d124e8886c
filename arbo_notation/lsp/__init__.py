"""`arbo lsp`: a language server for .arb records, on pygls (the `lsp` extra)."""
