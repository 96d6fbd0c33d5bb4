# Chapter 12: each variant's best GB/s over the block sizes it accepts (2^26 int32), with
# CUB as row 0, from docs/results/ch12_block_sweep.csv (column 9: best GB/s).
set datafile separator comma
set terminal svg size 950,620 font "Helvetica,12" background rgb "white"
set output out
set style fill solid 0.85 border -1
set xlabel "GB/s at the best block size (bytes = 4 per int32 read once)"
set ytics noenhanced nomirror
# Row 0 is the CSV header line, which plots nothing.
set yrange [0.4:*] reverse
set xrange [0:*]
set grid xtics
set lmargin 62
set key off
file = results.'/ch12_block_sweep.csv'
plot file using 9:0:(0):9:($0-0.35):($0+0.35):ytic(2) \
       with boxxyerror lc rgb "#4a7ebb", \
     file using 9:0:(sprintf(" %.0f", $9)) with labels left offset 0.3,0
