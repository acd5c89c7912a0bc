#!/usr/bin/env bash
# The package as R users get it: `R CMD build`, then `R CMD check
# --no-manual` of the tarball with its tests (one run of the testthat suite,
# default mode). Fails when the tarball holds object files or shared
# objects, or when the check gives an ERROR or a WARNING. Run from the
# repository's root; works in .check/.
set -euo pipefail
root=$(pwd)
rm -rf .check
mkdir .check
cd .check
R CMD build "$root" > build.log 2>&1 || { cat build.log; exit 1; }
tarball=$(ls rir_*.tar.gz)
if tar tzf "$tarball" | grep -E '\.(o|so|dll)$'; then
  echo "check-package: the tarball holds object files (above)"
  exit 1
fi
echo "check-package: $tarball holds no object files"
status=0
_R_CHECK_FORCE_SUGGESTS_=false R CMD check --no-manual "$tarball" > check.log 2>&1 || status=$?
cat check.log
line=$(grep '^Status: ' rir.Rcheck/00check.log || true)
echo "check-package: R CMD check exit status $status, ${line:-no status line}"
if [ "$status" -ne 0 ] || echo "$line" | grep -qE 'ERROR|WARNING'; then
  tail -40 rir.Rcheck/tests/*.Rout* 2>/dev/null || true
  exit 1
fi
