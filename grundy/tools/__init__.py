"""The researcher's workbench: positions typed as people write them, tables of values,
plots, playing a position, and how results display in a notebook."""
