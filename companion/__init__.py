"""Onitama mat companion: rules, move recognition, service and web pages."""
