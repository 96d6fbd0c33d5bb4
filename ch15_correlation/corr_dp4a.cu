// Variant 7 (packed byte dot products), compiled once: one kernel per compiled number of
// template words per band, each with its sums twin.
#include <string>

#include "corr7_dp4a.cuh"
