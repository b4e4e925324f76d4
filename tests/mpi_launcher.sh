# mpi_launcher.sh, sourced by the tests that start ranks: `mpi_launcher MPIEXEC` prepares this
# shell to run the suite under that launcher and leaves its flags in the array mpi_flags.
# - Open MPI refuses root (CI containers run as root) and more ranks than cores unless told.
# - One OpenMP thread per rank: the tests oversubscribe small hosts, and say so
#   (LBMR_OVERSUBSCRIBE=1: their states need no speed; lbm-cpu refuses a crowded node otherwise).
# - In a sanitizer build LeakSanitizer would report Open MPI's own allocations at exit (in MCA
#   components already unloaded, so no suppression can name them); the single-process tests check
#   the suite's code for leaks, the runs under a launcher check its memory errors.
# shellcheck shell=bash
mpi_launcher() {
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 LBMR_OVERSUBSCRIBE=1
    export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
    mpi_flags=()
    if "$1" --version 2>/dev/null | grep -Eq "Open MPI|OpenRTE"; then
        mpi_flags+=(--oversubscribe)
    fi
}

# same_state_flags LBM: the flags of a run whose rows are compared by state (one per line): the
# CPU's wait for a quiet clock (--quiet-wait) repeats a row's repetitions by what the clock did, so
# the update counts, and with them the states, of two grids or kernels would differ; the GPU (a
# binary named *gpu*) has no clock probe. Used by tests/mpi_same_state.sh,
# tests/same_state_kernels.sh and data/scripts/mpi-study.sh.
same_state_flags() {
    case ${1##*/} in *gpu*) ;; *) printf '%s\n' --quiet-wait off ;; esac
}
