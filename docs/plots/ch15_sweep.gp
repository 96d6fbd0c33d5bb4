# Chapter 15, figure 15.6 for every variant: correlation rate against template size on the
# 1024 x 1024 image, from docs/results/ch15_sweep.csv. Columns: 2 side, 4 id, 8 Mpix/s
# (no cell of this table holds a comma). A variant's line ends where it left the budget.
set terminal svg size 950,560 font "Helvetica,12" background rgb "white"
set output out
set xlabel "template side (square templates, pixels)"
set ylabel "Mpix/s (output pixels per second, 1e6)"
set logscale xy
set grid
set key outside right top noenhanced
set xtics (8, 16, 32, 52, 64, 128, 256)
file = results.'/ch15_sweep.csv'
rows(id) = sprintf("< awk -F, '$4==\"%s\" {print $2, $8}' '%s'", id, file)
set linetype 9 lc rgb "#8b1a1a" dt 2
names = "tex_tex tex_constant shared shared_umul24 shared4 shared_fixed dp4a tensor fft shared_async"
plot for [id=1:10] rows(sprintf("%d", id)) using 1:2 with linespoints lw 2 pt 7 ps 0.6 \
       title sprintf("%d %s", id, word(names, id))
