"""The schema's migrations, one file each, named in the order they run (0001, 0002, ...).

A file's name and its `revision` id differ for 0003-0008: the ids are what every existing
database records in `alembic_version`, so they never change; the names only sort the files
in the chain's order for a reader.
"""
