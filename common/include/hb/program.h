/// \file
/// \brief main() of a chapter's table-driven programs: CMake builds main.cpp once per row of
///        the variant table, with HB_VARIANT_ID ("10a") and HB_PROGRAM_NAME, and once without
///        HB_VARIANT_ID as the chapter's driver.
#pragma once

namespace hb {

/// Runs \p variant (program name, variant id, argc, argv) in a per-variant program, \p driver
/// (argc, argv) in the driver.
template <typename Variant, typename Driver>
int chapter_main(int argc, char** argv, Variant variant, Driver driver) {
#ifdef HB_VARIANT_ID
  (void)driver;
  return variant(HB_PROGRAM_NAME, HB_VARIANT_ID, argc, argv);
#else
  (void)variant;
  return driver(argc, argv);
#endif
}

}  // namespace hb
