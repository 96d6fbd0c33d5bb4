// Variant 9 (the FFT route of section 15.8), compiled once; the only file that needs cuFFT.
#include <vector>

#include "corr9_fft.cuh"
