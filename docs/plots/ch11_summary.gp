# Table 11.1 / Figure 11.1 for today's GPU: effective GB/s of each strategy of chapter 11,
# from docs/results/ch11_summary.csv (run by scripts/make_docs_pages.py with `results`, `out`).
set datafile separator comma
set terminal svg size 1000,380 font "Helvetica,12" background rgb "white"
set output out
set style fill solid 0.85 border -1
set xlabel "effective GB/s (12 bytes per element: x and y up, out back)"
set ytics noenhanced nomirror
# Row 0 is the CSV header line, which plots nothing.
set yrange [0.4:*] reverse
set xrange [0:*]
set grid xtics
set lmargin 60
set key off
file = results.'/ch11_summary.csv'
plot file using 4:0:(0):4:($0-0.35):($0+0.35):ytic(2) with boxxyerror lc rgb "#4a7ebb", \
     file using 4:0:(sprintf(" %.1f", $4)) with labels left offset 0.3,0
