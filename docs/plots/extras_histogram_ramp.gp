# Extras, histograms: GB/s of every variant on the 'ramp' distribution (2^28 bytes), with CUB's
# rate in the same run as a dashed line, from docs/results/extras_histogram.csv (columns:
# 1 id, 2 variant, 3 distribution, 5 GB/s). scripts/make_docs_pages.py
# runs it with `results` and `out`).
set datafile separator comma
set terminal svg size 950,560 font "Helvetica,12" background rgb "white"
set output out
set style fill solid 0.85 border -1
set xlabel "GB/s on 'ramp' bytes (input bytes read once, 1e9 bytes/s)"
set ytics noenhanced nomirror
set yrange [-0.6:*] reverse
set xrange [0:*]
set grid xtics
set lmargin 26
set key off
# Value labels on a white box, so that the CUB line behind them does not strike them out.
set style textbox opaque noborder
file = results.'/extras_histogram.csv'
rows = sprintf("< awk -F, '$3==\"ramp\"' %s", file)
cub = real(system(sprintf("awk -F, '$3==\"ramp\" && $2==\"cub\" {print $5}' %s", file)))
set arrow from first cub, graph 0 to first cub, graph 1 nohead dt 2 lw 2 lc rgb "black" back
set tmargin 2
set label sprintf("CUB %.0f GB/s", cub) at first cub, graph 1 offset -4,0.8
plot rows using 5:0:(0):5:($0-0.35):($0+0.35):ytic(sprintf("%s %s", strcol(1), strcol(2))) \
       with boxxyerror lc rgb "#4a7ebb", \
     rows using 5:0:(sprintf(" %.0f", $5)) with labels left offset 0.3,0 boxed
