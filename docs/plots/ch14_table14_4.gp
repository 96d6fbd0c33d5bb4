# Table 14.4 today: body-body interactions per second of every variant (CPU rows at 4K-16K
# bodies, GPU rows at 65536), log scale, from docs/results/ch14_table14_4.csv (column 5).
set datafile separator comma
set terminal svg size 950,560 font "Helvetica,12" background rgb "white"
set output out
set style fill solid 0.85 border -1
set xlabel "1e9 body-body interactions per second (log scale)"
set logscale x
set xrange [0.1:20000]
set ytics noenhanced nomirror
set yrange [-0.6:*] reverse
set grid xtics
set lmargin 70
set key off
file = results.'/ch14_table14_4.csv'
# every ::1 skips the header line, whose "1e9 interactions/s" would read as a number.
plot file every ::1 using 5:($0):(0.1):5:($0-0.35):($0+0.35):ytic(2) with boxxyerror lc rgb "#4a7ebb", \
     file every ::1 using 5:($0):($5 >= 10 ? sprintf(" %.0f", $5) : sprintf(" %.3g", $5)) with labels left
