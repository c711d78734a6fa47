"""TinyDB files on disk: atomic storage, the library folder, backups, migrations, recovery."""
