/// \file
/// \brief Device-side pieces that several variants share.
#pragma once

#include <cstddef>

#include "hb/error.h"
#include "reduction_launch.h"
#include "reduction_launchers.h"

namespace ch12 {

/// The dynamically sized shared memory of a launch, viewed as an array of T.
///
/// This is the modern form of the CUDA SDK's `SharedMemory<T>` idiom that section 12.6
/// uses: one `extern __shared__` array of bytes, aligned for any type we store, cast to T.
/// Declaring `extern __shared__ T s[]` with a different T in each kernel of one translation
/// unit is an error ("declaration is incompatible"), and a class type would need an
/// explicit specialization per type, which is what listing 12.10 does.
template <typename T>
__device__ __forceinline__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char ch12_dynamic_shared[];
  return reinterpret_cast<T*>(ch12_dynamic_shared);
}

}  // namespace ch12
