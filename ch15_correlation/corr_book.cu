// The book's kernels (variants 1 to 6), compiled once for every program and test of the
// chapter. They share one `__constant__` template (g_Tpix), so they live in one translation
// unit: constant memory belongs to a module, and each .cu file is one.
#include "corr1_tex_tex.cuh"
#include "corr2_tex_constant.cuh"
#include "corr3_shared.cuh"
#include "corr4_shared_umul24.cuh"
#include "corr5_shared4.cuh"
#include "corr6_shared_fixed.cuh"
