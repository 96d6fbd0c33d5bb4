// The kernels beyond the post, aimed at CUB on every distribution (variants 11 to 14),
// compiled once into the chapter's library.
#include "histogram_launchers.h"
#include "histogram11_warp_private.cuh"
#include "histogram12_warp_aggregated.cuh"
#include "histogram13_lane_columns_atomic.cuh"
#include "histogram14_lane_columns_pairs.cuh"
