# version.cmake: writes suite_version.h with `git describe` of the source tree (run each build;
# the file is rewritten only when the text changes, so nothing rebuilds needlessly).
execute_process(COMMAND git -C "${SRC}" describe --tags --always --dirty
                OUTPUT_VARIABLE desc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR desc STREQUAL "")
  set(version "${FALLBACK}")
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
