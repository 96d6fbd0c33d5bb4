# After Doxygen: the HTML must load MathJax from its own copy (no network, no link out of the
# folder), with the AMS extensions; every page that uses formulas then renders offline.
if(IS_SYMLINK ${HTML}/mathjax)
  message(FATAL_ERROR "docs: ${HTML}/mathjax is a link: the folder would break when copied")
endif()
foreach(part MathJax.js extensions/tex2jax.js extensions/TeX/AMSmath.js
             extensions/TeX/AMSsymbols.js jax/input/TeX/jax.js jax/output/HTML-CSS/jax.js
             fonts/HTML-CSS/TeX/woff)
  if(NOT EXISTS ${HTML}/mathjax/${part})
    message(FATAL_ERROR "docs: ${HTML}/mathjax/${part} is missing (libjs-mathjax)")
  endif()
endforeach()
file(STRINGS ${HTML}/index.html ams REGEX "TeX/AMSmath")
if(NOT ams)
  message(FATAL_ERROR "docs: the pages do not load MathJax's AMS extensions")
endif()
file(GLOB pages ${HTML}/*.html)
foreach(page IN LISTS pages)
  file(STRINGS ${page} remote REGEX "src=\"https?://[^\"]*[Mm]ath[Jj]ax")
  if(remote)
    message(FATAL_ERROR "docs: ${page} loads MathJax from the network: ${remote}")
  endif()
endforeach()
