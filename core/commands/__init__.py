"""The commands a chat can give: their values, parameters, checks and text parsers."""
