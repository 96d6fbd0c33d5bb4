# Chapter 15, figure 15.2: the coefficients of the default template over the coin scene,
# after the log transform (bright: strong match). Reads docs/results/ch15_correlation.pgm
# (normalized_cross_correlation --variant 8 --output ch15_correlation.pgm), a binary PGM without comments.
file = results.'/ch15_correlation.pgm'
dims = system(sprintf("awk 'NR==2 {print $1, $2; exit}' '%s'", file))
w = word(dims, 1) + 0
h = word(dims, 2) + 0
skip = strlen(sprintf("P5\n%d %d\n255\n", w, h))
set terminal svg size 2*w+40, 2*h+40 font "Helvetica,12" background rgb "white"
set output out
set size ratio -1
set margins 1, 1, 1, 1
unset border
unset tics
unset key
unset colorbox
set palette gray
set xrange [-0.5:w-0.5]
set yrange [h-0.5:-0.5]
set cbrange [0:255]
plot file binary skip=skip array=(w,h) format='%uchar' with image
