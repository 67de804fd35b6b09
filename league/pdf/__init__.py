"""PDF roster sheets rendered with WeasyPrint."""
