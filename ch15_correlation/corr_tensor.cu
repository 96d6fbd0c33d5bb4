// Variant 8 (tensor cores), compiled once.
#include "corr8_tensor.cuh"
