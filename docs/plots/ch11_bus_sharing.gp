# The copy in of chapter 11 beside traffic back to the host: its rate as a share of the copy
# in alone, from docs/results/ch11_bus_sharing.csv (run by scripts/make_docs_pages.py with
# `results`, `out`).
set datafile separator comma
set datafile columnheaders
set terminal svg size 900,380 font "Helvetica,12" background rgb "white"
set output out
set style fill solid 0.85 border -1
set xlabel "copy in (8n bytes host->device), % of its rate alone"
set ytics noenhanced nomirror
set yrange [7.6:-0.6]
set xrange [0:115]
set grid xtics
set lmargin 70
set key off
file = results.'/ch11_bus_sharing.csv'
# Each row's label is what ran beside the copy in (rows a, b, ..., g, p of the table).
plot file using 7:0:(0):7:($0-0.35):($0+0.35):ytic(2) with boxxyerror lc rgb "#4a7ebb", \
     file using ($7 + 1):0:(sprintf("%.1f", $7)) with labels left
