# Copies the parts of MathJax 2 that the pages load (TeX input with the AMS extensions, HTML-CSS
# output with its TeX web fonts, the menus, English) from FROM into TO, so that the HTML folder
# renders its formulas offline and wherever it is copied. About 8 MB of Debian's 54.
file(REMOVE_RECURSE ${TO})
file(MAKE_DIRECTORY ${TO} ${TO}/jax ${TO}/jax/output ${TO}/fonts ${TO}/fonts/HTML-CSS ${TO}/localization)
file(COPY ${FROM}/MathJax.js ${FROM}/extensions DESTINATION ${TO})
file(COPY ${FROM}/jax/input ${FROM}/jax/element DESTINATION ${TO}/jax)
file(COPY ${FROM}/jax/output/HTML-CSS DESTINATION ${TO}/jax/output)
file(COPY ${FROM}/fonts/HTML-CSS/TeX DESTINATION ${TO}/fonts/HTML-CSS)
file(COPY ${FROM}/localization/en DESTINATION ${TO}/localization)
