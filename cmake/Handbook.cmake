# Helpers that keep every chapter's CMakeLists.txt a few lines long.
#
#   hb_add_program(<name> SOURCES <files...> [LIBS <targets...>] [DEMO_ARGS <args...>])
#       One small self-contained executable, linked with the common layer. With DEMO_ARGS
#       it is also run as a ctest test labelled `demo` (exit code must be 0; a machine with no
#       CUDA device reports it Skipped).
#
#   hb_add_variant_programs(MAIN <file> VARIANTS <id:name>... [LIBS ...] [DEMO_ARGS ...])
#       One executable per row of a chapter's variant table, all built from one small main.
#       Each gets HB_VARIANT_ID="<id>" and HB_PROGRAM_NAME="<name>" so it runs that row alone
#       (hb/program.h).
#
#   Every program is also run against every class of bad input its flags allow
#   (scripts/bad_inputs.py): ctest test usage.<name>.bad_inputs, label `cpu`.
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

# Every class of bad input for one program: exit 2 and one clear line, no hang, no exit 0
# after a failed write (scripts/bad_inputs.py; needs no GPU).
function(hb_add_bad_input_test name)
  add_test(NAME usage.${name}.bad_inputs
           COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/bad_inputs.py
                   --build ${CMAKE_BINARY_DIR} --program ${name})
  set_tests_properties(usage.${name}.bad_inputs PROPERTIES LABELS cpu TIMEOUT 300)
endfunction()

function(hb_add_program name)
  cmake_parse_arguments(P "" "" "SOURCES;LIBS;DEMO_ARGS" ${ARGN})
  add_executable(${name} ${P_SOURCES})
  target_link_libraries(${name} PRIVATE hb_common ${P_LIBS})
  hb_warnings(${name})
  hb_add_bad_input_test(${name})
  if(DEFINED P_DEMO_ARGS)
    hb_add_demo_test(${name} ${name} ${P_DEMO_ARGS})
  endif()
endfunction()

# hb_add_book_command(<target> <book name> <test name> <args...>)
#   The program as the book names it (a link <book name> beside <target> in the build folder),
#   and a `demo` test that runs the command the text prints, as printed.
function(hb_add_book_command target book_name test_name)
  add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE_NAME:${target}> ${book_name}
      WORKING_DIRECTORY $<TARGET_FILE_DIR:${target}> VERBATIM)
  hb_add_demo_test(${test_name} ${CMAKE_CURRENT_BINARY_DIR}/${book_name} ${ARGN})
endfunction()

# hb_variant_kernels(<prefix> <pairs-var> <rdc-sources-var> [NO_ID] [DIR <folder>])
#   The variants of the current chapter, read off its kernels/ folder (or <folder>, e.g.
#   kernels/warp where a chapter has one table per level) in reading order: each
#   file NN_<name>.cuh (or NNa_<name>.cuh) is one variant, its id NN without leading zeros
#   ("08a" -> "8a"), its program <prefix><id>_<name> (<prefix><name> with NO_ID, so the
#   prefix then ends in "_"). Writes <prefix>_kernels.cuh (one "_") to the binary folder,
#   which includes every .cuh (the chapter's variant table includes it and so compiles each
#   kernel once); sets <pairs-var> to the id:program pairs for
#   hb_add_variant_programs, and <rdc-sources-var> to the folder's *.cu files, which hold
#   kernels that launch kernels and are compiled apart with relocatable device code.
function(hb_variant_kernels prefix pairs_var rdc_var)
  cmake_parse_arguments(P "NO_ID" "DIR" "" ${ARGN})
  if(NOT P_DIR)
    set(P_DIR kernels)
  endif()
  file(GLOB files CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}
       ${CMAKE_CURRENT_SOURCE_DIR}/${P_DIR}/*.cuh ${CMAKE_CURRENT_SOURCE_DIR}/${P_DIR}/*.cu)
  list(SORT files)
  set(pairs "")
  set(rdc "")
  set(includes "// Generated by hb_variant_kernels from ${CMAKE_CURRENT_SOURCE_DIR}/${P_DIR}\n#pragma once\n")
  foreach(f IN LISTS files)
    get_filename_component(base ${f} NAME)
    if(NOT base MATCHES "^0*([0-9]+[a-z]?)_([a-z0-9_]+)\\.(cuh|cu)$")
      message(FATAL_ERROR "${f}: a kernel file is named NN_name.cuh, NN the variant's number")
    endif()
    if(P_NO_ID)
      list(APPEND pairs "${CMAKE_MATCH_1}:${prefix}${CMAKE_MATCH_2}")
    else()
      list(APPEND pairs "${CMAKE_MATCH_1}:${prefix}${CMAKE_MATCH_1}_${CMAKE_MATCH_2}")
    endif()
    if(CMAKE_MATCH_3 STREQUAL "cu")
      list(APPEND rdc ${f})
    else()
      string(APPEND includes "#include \"${CMAKE_CURRENT_SOURCE_DIR}/${f}\"\n")
    endif()
  endforeach()
  string(REGEX REPLACE "_$" "" stem "${prefix}")
  file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/${stem}_kernels.cuh CONTENT "${includes}")
  set(${pairs_var} ${pairs} PARENT_SCOPE)
  set(${rdc_var} ${rdc} PARENT_SCOPE)
endfunction()

function(hb_add_variant_programs)
  cmake_parse_arguments(P "" "MAIN" "VARIANTS;LIBS;DEMO_ARGS" ${ARGN})
  foreach(pair IN LISTS P_VARIANTS)
    string(REPLACE ":" ";" parts "${pair}")
    list(GET parts 0 id)
    list(GET parts 1 name)
    hb_add_program(${name} SOURCES ${P_MAIN} LIBS ${P_LIBS})
    target_compile_definitions(${name} PRIVATE HB_VARIANT_ID="${id}" HB_PROGRAM_NAME="${name}")
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

# hb_add_fuzz_harness(<name> SOURCES <files...>)
#   A libFuzzer harness fuzz_<name>, compiled by clang++ with the address and undefined-behaviour
#   sanitizers (the project's own compiler may be GCC), and a `cpu` test fuzz.<name> that runs
#   it on 200,000 inputs (at most 60 s, a fixed random seed so CI sees the same inputs each
#   run) from the seeds in fuzz/<name>_seeds. Left out, with a
#   note, where no clang++ with libFuzzer is found.
find_program(HB_CLANGXX NAMES clang++ clang++-19 clang++-18 clang++-17 clang++-16 clang++-15
             clang++-14)
if(HB_CLANGXX AND NOT DEFINED HB_LIBFUZZER)
  file(WRITE ${CMAKE_BINARY_DIR}/libfuzzer_probe.cpp
       "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }\n")
  execute_process(COMMAND ${HB_CLANGXX} -fsanitize=fuzzer ${CMAKE_BINARY_DIR}/libfuzzer_probe.cpp
                          -o ${CMAKE_BINARY_DIR}/libfuzzer_probe
                  RESULT_VARIABLE probe OUTPUT_QUIET ERROR_QUIET)
  if(probe EQUAL 0)
    set(HB_LIBFUZZER ON CACHE INTERNAL "clang++ links libFuzzer")
  else()
    set(HB_LIBFUZZER OFF CACHE INTERNAL "clang++ links libFuzzer")
  endif()
endif()
if(NOT HB_LIBFUZZER)
  message(STATUS "Fuzz harnesses: left out (no clang++ with libFuzzer; Debian: clang "
                 "libclang-rt-dev)")
endif()

function(hb_add_fuzz_harness name)
  if(NOT HB_LIBFUZZER)
    return()
  endif()
  cmake_parse_arguments(P "" "" "SOURCES" ${ARGN})
  set(exe ${CMAKE_CURRENT_BINARY_DIR}/fuzz_${name})
  set(sources "")
  foreach(src IN LISTS P_SOURCES)
    list(APPEND sources ${CMAKE_CURRENT_SOURCE_DIR}/${src})
  endforeach()
  set(cli11 $<TARGET_PROPERTY:CLI11::CLI11,INTERFACE_INCLUDE_DIRECTORIES>)
  set(cuda_includes "")
  foreach(dir IN LISTS CUDAToolkit_INCLUDE_DIRS)  # may be several (the CCCL folder too)
    list(APPEND cuda_includes -I${dir})
  endforeach()
  add_custom_command(OUTPUT ${exe}
      COMMAND ${HB_CLANGXX} -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined
              -fno-sanitize-recover=all -I${CMAKE_CURRENT_SOURCE_DIR}/include
              "$<$<BOOL:${cli11}>:-I$<JOIN:${cli11},;-I>>"
              ${cuda_includes} ${sources} -o ${exe}
      DEPENDS ${sources} COMMAND_EXPAND_LISTS
      COMMENT "fuzz_${name}: libFuzzer harness (clang++)" VERBATIM)
  add_custom_target(build_fuzz_${name} ALL DEPENDS ${exe})
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/fuzz_${name}_corpus)
  add_test(NAME fuzz.${name}
           COMMAND ${exe} -seed=1 -runs=200000 -max_total_time=60 -max_len=4096 -rss_limit_mb=2048
                   -malloc_limit_mb=512 -timeout=10
                   ${CMAKE_CURRENT_BINARY_DIR}/fuzz_${name}_corpus
                   ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/${name}_seeds)
  set_tests_properties(fuzz.${name} PROPERTIES LABELS cpu TIMEOUT 180)
endfunction()
