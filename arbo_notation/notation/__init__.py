"""The .arb notation: grammar, parser, typed records, canonical writer and structured conversions."""
