/// \file
/// \brief The body-body interaction of listing 14.1, shared by the CPU variants, the GPU
///        kernels and the float64 reference.
///
/// Every variant computes, for each body \f$i\f$, the softened acceleration
/// \f[
///   \mathbf{a}_i = \sum_{j=1}^{N} \frac{m_j\,\mathbf{d}_{ij}}
///                  {\left(\lVert\mathbf{d}_{ij}\rVert^2 + \varepsilon^2\right)^{3/2}},
///   \qquad \mathbf{d}_{ij} = \mathbf{x}_j - \mathbf{x}_i ,
/// \f]
/// with the gravitational constant \f$G = 1\f$. The sum runs over all \f$N\f$ bodies,
/// \f$j = i\f$ included: then \f$\mathbf{d}_{ii} = 0\f$ and, because \f$\varepsilon > 0\f$,
/// the term is exactly zero, so no variant needs a branch for the diagonal of the force matrix.
#pragma once

#include <cmath>

#include <cuda_runtime.h>  // float4 and the __host__ __device__ keywords, also for g++

namespace ch14 {

// [nbody-interaction]
/// Listing 14.1: the acceleration that body 1 (position \p x1, \p y1, \p z1, mass \p mass1)
/// gives body 0 (position \p x0, \p y0, \p z0), softened by \p softeningSquared
/// (\f$\varepsilon^2\f$). Written once for the CPU and the GPU, and for float and double: the
/// tests' float64 reference is this same function with T = double.
/// \tparam T float or double
/// \param[out] ax, ay, az the acceleration of body 0 due to body 1
/// \param x0, y0, z0 the position of body 0
/// \param x1, y1, z1 the position of body 1
/// \param mass1 the mass of body 1
/// \param softeningSquared \f$\varepsilon^2\f$
/// \pre softeningSquared > 0 (so that a body's interaction with itself is 0, not NaN)
template <typename T>
__host__ __device__ inline void bodyBodyInteraction(T& ax, T& ay, T& az, T x0, T y0, T z0, T x1,
                                                    T y1, T z1, T mass1, T softeningSquared) {
  using std::sqrt;
  T dx = x1 - x0;
  T dy = y1 - y0;
  T dz = z1 - z0;
  T distSqr = dx * dx + dy * dy + dz * dz;
  distSqr += softeningSquared;
  // The book's arithmetic: an IEEE square root and an IEEE division (nvcc's defaults,
  // -prec-sqrt=true -prec-div=true). Variant 10 replaces both with one hardware rsqrt.
  T invDist = T(1) / sqrt(distSqr);
  T invDistCube = invDist * invDist * invDist;
  T s = mass1 * invDistCube;
  ax = dx * s;
  ay = dy * s;
  az = dz * s;
}
// [nbody-interaction]

}  // namespace ch14
