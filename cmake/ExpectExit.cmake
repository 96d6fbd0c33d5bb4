# ctest helper: runs PROGRAM with ARGS ('|'-separated) and passes only when the exit code is
# EXPECT and stderr is exactly one line matching REGEX. (PASS_REGULAR_EXPRESSION alone would
# ignore the exit code, which is half of what we test.)
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${PROGRAM} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT "${rc}" STREQUAL "${EXPECT}")
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
string(REGEX MATCHALL "\n" newlines "${err}")
list(LENGTH newlines lines)
if(NOT lines EQUAL 1 OR NOT err MATCHES "${REGEX}")
  message(FATAL_ERROR "stderr should be one line matching '${REGEX}', got:\n${err}")
endif()
message(STATUS "exit ${rc} as expected: ${err}")
