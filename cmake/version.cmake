# version.cmake: writes suite_version.h with `git describe` of the source tree (run each build;
# the file is rewritten only when the text changes, so nothing rebuilds needlessly). A tree
# copied without .git takes the version from the environment variable LBMR_VERSION, else
# "<project version>-unknown", so no row claims a commit it cannot name.
execute_process(COMMAND git -C "${SRC}" describe --tags --always --dirty
                OUTPUT_VARIABLE desc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR desc STREQUAL "")
  if(DEFINED ENV{LBMR_VERSION} AND NOT "$ENV{LBMR_VERSION}" STREQUAL "")
    set(version "$ENV{LBMR_VERSION}")
  else()
    set(version "${FALLBACK}-unknown")
  endif()
else()
  set(version "${FALLBACK}-${desc}")
endif()
set(text "/* suite_version.h: generated at build time by cmake/version.cmake */\n#define SUITE_VERSION \"${version}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
