#!/usr/bin/env bash
# The outputs the README and docs/*.md quote (each after an "<!-- output of:
# COMMAND -->" line) are exactly what their commands print with this build.
# A drifted block fails with its diff; scripts/docs-examples.sh --update
# regenerates them.  Examples that read ../shared/corpora are skipped by the
# script, with a note, when the corpora are absent, and in the sanitizer
# build (CETUNE_SANITIZED), where they would take many minutes: the normal
# build checks their text, and their code paths have sanitized tests of their
# own (test_corpora, evolve_folds, serve_families).
CETUNE=$1 SRC=$2
skip=()
[ -n "${CETUNE_SANITIZED:-}" ] && skip=(--skip-corpora)
bash "$SRC/scripts/docs-examples.sh" --check --cetune "$CETUNE" "${skip[@]}"
