# After Doxygen: the HTML must load MathJax from the local link (no network) and that link
# must reach MathJax.js; every page that uses formulas then renders offline.
if(NOT EXISTS ${HTML}/mathjax/MathJax.js)
  message(FATAL_ERROR "docs: ${HTML}/mathjax/MathJax.js is missing (libjs-mathjax)")
endif()
file(GLOB pages ${HTML}/*.html)
foreach(page IN LISTS pages)
  file(STRINGS ${page} remote REGEX "src=\"https?://[^\"]*[Mm]ath[Jj]ax")
  if(remote)
    message(FATAL_ERROR "docs: ${page} loads MathJax from the network: ${remote}")
  endif()
endforeach()
