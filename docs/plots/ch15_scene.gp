# Chapter 15, figure 15.1: the generated coin scene with the default template outlined.
# Reads docs/results/ch15_scene.pgm (normalized_cross_correlation --write-input), a binary
# PGM without comments, whose header is "P5\n<w> <h>\n255\n".
file = results.'/ch15_scene.pgm'
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
# The default template: 52 x 52 at (210, 148).
set object 1 rectangle from 209.5, 147.5 to 261.5, 199.5 front fillstyle empty border lc rgb "#e03020" lw 2
plot file binary skip=skip array=(w,h) format='%uchar' with image
