#!/usr/bin/env bash
# Extracts every message of src/fivedice into the template and merges it into each catalog.
# Run after changing user-facing text, then translate the new entries (tests check coverage).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
POT=src/fivedice/i18n/fivedice.pot
$BIN/pybabel extract --no-location --omit-header -k _ -k N_ -k ngettext:1,2 -o "$POT" src/fivedice
for lang in nl de ja fr es; do
  po=src/fivedice/i18n/locale/$lang/LC_MESSAGES/fivedice.po
  if [ -f "$po" ]; then
    $BIN/pybabel update --no-fuzzy-matching -i "$POT" -d src/fivedice/i18n/locale -D fivedice -l "$lang"
  else
    $BIN/pybabel init -i "$POT" -d src/fivedice/i18n/locale -D fivedice -l "$lang"
  fi
done
