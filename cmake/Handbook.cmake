# Helpers that keep every chapter's CMakeLists.txt a few lines long.
#
#   hb_add_program(<name> SOURCES <files...> [LIBS <targets...>] [DEMO_ARGS <args...>])
#       One small self-contained executable, linked with the common layer. With DEMO_ARGS
#       it is also run as a ctest test labelled `demo` (exit code must be 0; a machine with no
#       CUDA device reports it Skipped).
#
#   hb_add_variant_programs(MAIN <file> VARIANTS <id:name>... [LIBS ...] [DEMO_ARGS ...])
#       One executable per row of a chapter's variant table, all built from one small main.
#       Each gets HB_VARIANT_ID=<id> and HB_PROGRAM_NAME="<name>" so it runs that row alone.
#
#   hb_add_chapter_tests(<target> SOURCES <files...> [LIBS <targets...>])
#       One Catch2 executable per chapter. Every TEST_CASE becomes its own ctest test:
#       tagged [gpu] -> label `gpu` (Skipped without a device), otherwise label `cpu`.
#       The GPU tests are also run under compute-sanitizer (label `sanitizer`).

set(HB_SKIP_CODE 77)
set(HB_SANITIZER_TOOLS memcheck racecheck synccheck initcheck CACHE STRING
    "compute-sanitizer tools that the `sanitizer` label runs over every GPU test")
find_program(HB_COMPUTE_SANITIZER compute-sanitizer
             HINTS ${CUDAToolkit_BIN_DIR} /usr/local/cuda/bin)
option(HB_WERROR "Treat compiler warnings as errors" OFF)

function(hb_warnings target)
  set(cxx_flags -Wall -Wextra -Wshadow)
  string(REPLACE ";" "," host_flags "${cxx_flags}")
  target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:${cxx_flags}>
      $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=${host_flags} --Wreorder --Wno-deprecated-gpu-targets>)
  if(HB_WERROR)
    target_compile_options(${target} PRIVATE
        $<$<COMPILE_LANGUAGE:CXX>:-Werror>
        $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
  endif()
endfunction()

# A demo is Skipped without a CUDA device (exit 77), and where its variant is left out on this
# GPU (the program prints "SKIPPED: <program> needs ..." and exits 3; see hb/capability.h).
function(hb_add_demo_test name target)
  add_test(NAME demo.${name} COMMAND ${target} ${ARGN})
  set_tests_properties(demo.${name} PROPERTIES
      LABELS demo SKIP_RETURN_CODE ${HB_SKIP_CODE} SKIP_REGULAR_EXPRESSION "SKIPPED: [a-z0-9_]+ needs "
      TIMEOUT 300)
endfunction()

function(hb_add_program name)
  cmake_parse_arguments(P "" "" "SOURCES;LIBS;DEMO_ARGS" ${ARGN})
  add_executable(${name} ${P_SOURCES})
  target_link_libraries(${name} PRIVATE hb_common ${P_LIBS})
  hb_warnings(${name})
  if(DEFINED P_DEMO_ARGS)
    hb_add_demo_test(${name} ${name} ${P_DEMO_ARGS})
  endif()
endfunction()

function(hb_add_variant_programs)
  cmake_parse_arguments(P "" "MAIN" "VARIANTS;LIBS;DEMO_ARGS" ${ARGN})
  foreach(pair IN LISTS P_VARIANTS)
    string(REPLACE ":" ";" parts "${pair}")
    list(GET parts 0 id)
    list(GET parts 1 name)
    hb_add_program(${name} SOURCES ${P_MAIN} LIBS ${P_LIBS})
    target_compile_definitions(${name} PRIVATE HB_VARIANT_ID=${id} HB_PROGRAM_NAME="${name}")
    if(DEFINED P_DEMO_ARGS)
      hb_add_demo_test(${name} ${name} ${P_DEMO_ARGS})
    endif()
  endforeach()
endfunction()

function(hb_add_chapter_tests target)
  cmake_parse_arguments(P "" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${target} ${P_SOURCES})
  target_link_libraries(${target} PRIVATE hb_test_main hb_common ${P_LIBS})
  hb_warnings(${target})
  # Two discoveries over one executable: the CPU tests, and the GPU tests which exit 77
  # (ctest: Skipped) when the machine has no CUDA device.
  catch_discover_tests(${target} TEST_SPEC "~[gpu]" TEST_PREFIX "${target}: "
      PROPERTIES LABELS cpu TIMEOUT 600)
  catch_discover_tests(${target} TEST_SPEC "[gpu]" TEST_PREFIX "${target}: "
      PROPERTIES LABELS gpu SKIP_RETURN_CODE ${HB_SKIP_CODE} TIMEOUT 600)
  foreach(tool IN LISTS HB_SANITIZER_TOOLS)
    add_test(NAME sanitizer.${tool}.${target}
             COMMAND ${CMAKE_SOURCE_DIR}/scripts/run_sanitizer.sh
                     "${HB_COMPUTE_SANITIZER}" ${tool} $<TARGET_FILE:${target}>)
    set_tests_properties(sanitizer.${tool}.${target} PROPERTIES
        LABELS sanitizer SKIP_RETURN_CODE ${HB_SKIP_CODE} TIMEOUT 1800)
  endforeach()
endfunction()

# hb_expect_usage_error(<target> <case-name> <args...>)
#   A `cpu` test: running <target> with <args> must exit 2 with a one-line message on stderr,
#   before any GPU work (so it passes on machines without a GPU too).
function(hb_expect_usage_error target name)
  string(REPLACE ";" "|" args "${ARGN}")
  add_test(NAME usage.${target}.${name}
           COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${target}> "-DARGS=${args}"
                   -DEXPECT=2 "-DREGEX=^${target}: error: " -P ${PROJECT_SOURCE_DIR}/cmake/ExpectExit.cmake)
  set_tests_properties(usage.${target}.${name} PROPERTIES LABELS cpu TIMEOUT 60)
endfunction()
