#!/usr/bin/env bash
# format_check.sh [SOURCE_DIR]: every C, header and CUDA file tracked by git in SOURCE_DIR (default:
# this checkout) is formatted as the root .clang-format says (clang-format --dry-run --Werror).
# Left out: the fuzz corpora (inputs, not code) and generated files (those that say "do not edit"
# in their first lines: their generator owns the layout). Exit 0 formatted, 1 not (the files and
# lines on stderr), 77 skipped: no clang-format, or SOURCE_DIR is not a git checkout.
set -u -o pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || { echo "format_check: cannot enter $root" >&2; exit 2; }
if ! command -v clang-format >/dev/null 2>&1; then
    echo "format_check: clang-format not found: skipped (Debian: apt-get install clang-format)" >&2
    exit 77
fi
if ! list=$(git ls-files -- '*.c' '*.h' '*.cu' '*.cuh' '*.inc' 2>/dev/null) || [ -z "$list" ]; then
    echo "format_check: $root is not a git checkout (the file list comes from git ls-files): skipped" >&2
    exit 77
fi
files=()
while IFS= read -r f; do
    case $f in tests/fuzz/corpus/*) continue ;; esac
    head -n 3 -- "$f" | grep -qi 'do not edit' && continue
    files+=("$f")
done <<<"$list"
if ! clang-format --dry-run --Werror -- "${files[@]}"; then
    echo "format_check: the files above differ from .clang-format ($(clang-format --version));" \
        "fix with: clang-format -i FILE" >&2
    exit 1
fi
echo "format_check: ${#files[@]} files formatted ($(clang-format --version))" >&2
