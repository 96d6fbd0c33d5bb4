/// \file
/// \brief The dynamically sized shared memory of a launch, viewed as an array of T.
///
/// This is the modern form of the CUDA SDK's `SharedMemory<T>` idiom (section 12.6): one
/// `extern __shared__` array of bytes, aligned for any type we store, cast to T. Declaring
/// `extern __shared__ T s[]` with a different T in each kernel of one translation unit is an
/// error ("declaration is incompatible"), and a class type would need an explicit
/// specialization per type, which is what listing 12.10 does.
#pragma once

namespace hb {

template <typename T>
__device__ __forceinline__ T* dynamic_shared() {
  extern __shared__ __align__(16) unsigned char hb_dynamic_shared[];
  return reinterpret_cast<T*>(hb_dynamic_shared);
}

}  // namespace hb
