// Variant 10f launches kernels from the GPU, which needs relocatable device code and the
// device runtime (cudadevrt). CMake builds only this file that way, in its own library.
#include "reduction10f_recursive.cuh"
