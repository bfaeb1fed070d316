# Sphinx configuration of the distributed-training manual (Debian: python3-sphinx).
# Build: bash bootstrap.sh doc (sphinx-build -W --keep-going -b html doc build/doc-html).

project = "distributed-training"
author = "the distributed-training authors"
copyright = "2026, " + author
root_doc = "index"
extensions = ["sphinx.ext.mathjax"]
# The CSV files and the generated tables next to the figures are data, not pages.
exclude_patterns = ["figures/**"]
html_theme = "alabaster"
html_theme_options = {"page_width": "1200px", "body_max_width": "auto"}
html_static_path = []
# Wide literal tables (measured grids) stay readable: no smart quotes in them.
smartquotes = False
highlight_language = "none"
