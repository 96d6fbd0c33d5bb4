# Chapter 13: time of one inclusive int32 scan against input size for CUB and the fastest
# variants, from docs/results/ch13_size_sweep.csv. Columns: 2 log2 n, 3 id, and "us" fourth
# from the end (the variant names hold commas, so we count from the end of the line).
set terminal svg size 900,460 font "Helvetica,12" background rgb "white"
set output out
set xlabel "log2 of the number of int32 elements"
set ylabel "microseconds per scan (median)"
set logscale y
set grid
set key top left noenhanced
file = results.'/ch13_size_sweep.csv'
rows(id) = sprintf("< awk -F, '$3==\"%s\" {print $2, $(NF-5)}' %s", id, file)
# CUB is black and dashed, so that it stays apart from variant 7 where the two lines meet.
ids = "0b 1 3 5c 6 7 8 9"
colors = "#000000 #1b9e77 #d95f02 #7570b3 #e7298a #1f78b4 #66a61e #e6ab02"
dash(i) = i == 1 ? 2 : 1
plot for [i=1:words(ids)] rows(word(ids, i)) using 1:2 with linespoints lw 2 \
       lc rgb word(colors, i) dashtype dash(i) pointtype i \
       title (word(ids, i) eq "0b" ? "CUB DeviceScan::InclusiveSum" : "variant ".word(ids, i))
