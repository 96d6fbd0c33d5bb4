// The kernels beyond the book's listings: shuffles (9), the blog posts' reductions (10a to
// 10e) and the vectorized single pass (11a, 11b), compiled once for the whole chapter.
// Variant 10f needs relocatable device code and lives in reduction10f_recursive.cu.
#include "reduction9_shuffle.cuh"
#include "reduction10a_neighbored.cuh"
#include "reduction10b_neighbored_less.cuh"
#include "reduction10c_global_memory.cuh"
#include "reduction10d_shared_memory.cuh"
#include "reduction10e_relaunch.cuh"
#include "reduction11a_vectorized.cuh"
#include "reduction11b_vectorized_atomics.cuh"
