# Chapter 12: time of one reduction against input size for CUB and the single-launch
# variants, from docs/results/ch12_size_sweep.csv. Columns: 2 log2 n, 3 id, and "us" fourth
# from the end (the variant names hold commas, so we count from the end of the line).
set terminal svg size 900,460 font "Helvetica,12" background rgb "white"
set output out
set xlabel "log2 of the number of int32 elements"
set ylabel "microseconds per reduction (median)"
set logscale y
set grid
set key top left noenhanced
file = results.'/ch12_size_sweep.csv'
rows(id) = sprintf("< awk -F, '$3==\"%s\" {print $2, $(NF-5)}' %s", id, file)
plot for [id in "0 4 9 11a 11b"] rows(id) using 1:2 with linespoints lw 2 \
       title (id eq "0" ? "CUB DeviceReduce::Sum" : "variant ".id)
