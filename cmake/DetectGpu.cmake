# hb_detect_gpu_architectures(<out-var>)
#   Sets <out-var> to the CUDA architectures of the GPUs in this machine ("90", "80;86"), as the
#   NVIDIA driver reports their compute capabilities through nvidia-smi; empty when there is no
#   GPU, no driver or no nvidia-smi. Included before project(), so it uses no CUDA language
#   support. (CMake's CMAKE_CUDA_ARCHITECTURES=native does the same through nvcc, but fails
#   outright on a machine without a GPU.)
function(hb_detect_gpu_architectures out)
  set(archs "")
  find_program(HB_NVIDIA_SMI nvidia-smi)
  if(HB_NVIDIA_SMI)
    execute_process(COMMAND ${HB_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                    RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_QUIET
                    OUTPUT_STRIP_TRAILING_WHITESPACE TIMEOUT 30)
    if(rc EQUAL 0)
      string(REPLACE "\n" ";" lines "${text}")
      foreach(line IN LISTS lines)
        string(STRIP "${line}" line)
        if(line MATCHES "^([0-9]+)\\.([0-9]+)$")
          set(arch "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
          if(arch LESS 75)
            message(WARNING "A GPU of compute capability ${line} is in this machine; CUDA 13 "
                            "builds for 7.5 and newer only, so it is left out.")
          else()
            list(APPEND archs "${arch}")
          endif()
        endif()
      endforeach()
      list(REMOVE_DUPLICATES archs)
    endif()
  endif()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()
