"""The printable score sheet: what it holds (`model`) and its PDF (`pdf`, fpdf2)."""
