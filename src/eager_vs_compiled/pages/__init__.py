"""Page builders, one module per docs section: Markdown and SVG strings generated from records."""
