# study-common.sh: sourced by the study scripts: build (Release) into $build and run the tests
# (the gpu-labelled ones only where a GPU is present), logs in $out.
log() { echo "== $*" >&2; }
log "build"
# shellcheck disable=SC2086
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release ${STUDY_CMAKE_ARGS:-} >"$out/build.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
label=(-LE gpu)
nvidia-smi -L >/dev/null 2>&1 && label=()
# STUDY_CTEST_ARGS narrows the tests (e.g. -R "mpi|default_align"), for a lease's time limit
# shellcheck disable=SC2086
(cd "$build" && ctest --output-on-failure "${label[@]}" ${STUDY_CTEST_ARGS:-} >"$out/ctest.log" 2>&1)
log "ctest: $(grep 'tests passed' "$out/ctest.log")"
