#!/usr/bin/env bash
# The outputs the README and docs/*.md quote (each after an "<!-- output of:
# COMMAND -->" line) are exactly what their commands print with this build.
# A drifted block fails with its diff; scripts/docs-examples.sh --update
# regenerates them.  Examples that read ../shared/corpora are skipped by the
# script, with a note, when the corpora are absent.
CETUNE=$1 SRC=$2
bash "$SRC/scripts/docs-examples.sh" --check --cetune "$CETUNE"
