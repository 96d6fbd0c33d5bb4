/// \file
/// \brief A picture of the bodies: their positions projected onto the x-y plane, as an 8-bit
///        gray image (PGM) whose brightness grows with the logarithm of the bodies per pixel.
#pragma once

#include <vector>

#include <vector_types.h>

#include "hb/pgm.h"

namespace ch14 {

/// Renders \p bodies into a \p size x \p size image of the square
/// \f$[-\mathrm{extent}, \mathrm{extent}]^2\f$ of the x-y plane (x to the right, y up).
/// A pixel with c bodies gets \f$255 \log(1 + c) / \log(1 + c_\mathrm{max})\f$; bodies
/// outside the square are left out.
/// \pre size >= 1, extent > 0
hb::GrayImage render_bodies(const std::vector<float4>& bodies, int size, float extent);

}  // namespace ch14
