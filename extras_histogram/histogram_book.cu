// The kernels of the post's methods and their refinements (variants 2 to 8), compiled once
// into the chapter's library.
#include "histogram_launchers.h"
#include "histogram2_naive.cuh"
#include "histogram3_global_atomics.cuh"
#include "histogram4_shared_privatized.cuh"
#include "histogram5_shared_unrolled.cuh"
#include "histogram6_shared_offset.cuh"
#include "histogram7_per_thread.cuh"
#include "histogram8_per_thread_packed.cuh"
