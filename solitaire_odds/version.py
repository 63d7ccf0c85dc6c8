"""The package version, in one place: the manifests record it and pyproject.toml reads it."""

VERSION = "0.1.0"
