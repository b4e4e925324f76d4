# version.cmake: writes lbmr_version.h with `git describe` of the source tree (run each build;
# the file is rewritten only when the text changes, so nothing rebuilds needlessly). The
# environment variable LBMR_VERSION, when set, wins: a tree copied elsewhere may carry no .git,
# or a stale one (seen on the device machines: every row of one session named the session's
# first commit, "-dirty"). Without either: "<project version>-unknown", so no row claims a
# commit it cannot name.
if(DEFINED ENV{LBMR_VERSION} AND NOT "$ENV{LBMR_VERSION}" STREQUAL "")
  set(version "$ENV{LBMR_VERSION}")
else()
  execute_process(COMMAND git -C "${SRC}" describe --tags --always --dirty
                  OUTPUT_VARIABLE desc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR desc STREQUAL "")
    set(version "${FALLBACK}-unknown")
  else()
    set(version "${FALLBACK}-${desc}")
  endif()
endif()
set(text "/* lbmr_version.h: generated at build time by cmake/version.cmake */\n#define LBMR_VERSION \"${version}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
